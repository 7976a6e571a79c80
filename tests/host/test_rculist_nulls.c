/*
 * lib/rculist_nulls.h: chains end in their own marker, additions and
 * removals keep the links consistent, and a walk whose entry moved to
 * another chain ends on that chain's marker, which is how a lock-free
 * reader learns to start again.
 */
#include "check.h"
#include "lib/rculist_nulls.h"

/* lib/rculist_window.h: the kernel holds a race window open here; the
 * host has none. */
bool rcu_list_windows_open;
void rcu_list_window_hold(void)
{
}

struct item {
	int value;
	struct hlist_nulls_node node;
};

/* "v v v | nulls N" for a chain; checks pprev links on the way. */
static const char *show(struct hlist_nulls_head *h)
{
	static char buf[256];
	struct hlist_nulls_node *pos, **pprev = &h->first;
	struct item *it;
	size_t len = 0;

	buf[0] = '\0';
	hlist_nulls_for_each_entry_rcu(it, pos, h, node) {
		CHECK(it->node.pprev == pprev);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%d ",
					it->value);
		pprev = &it->node.next;
	}
	snprintf(buf + len, sizeof(buf) - len, "| nulls %lu",
		 get_nulls_value(pos));
	return buf;
}

int main(void)
{
	struct hlist_nulls_head a, b;
	struct hlist_nulls_node *pos;
	struct item it[4], *e;
	int i, seen = 0;

	INIT_HLIST_NULLS_HEAD(&a, 0);
	INIT_HLIST_NULLS_HEAD(&b, 7);
	CHECK(hlist_nulls_empty(&a) && hlist_nulls_empty(&b));
	CHECK_STR(show(&a), "| nulls 0");
	CHECK_STR(show(&b), "| nulls 7");
	for (i = 0; i < 4; i++) {
		it[i].value = i;
		it[i].node.pprev = NULL;
		CHECK(hlist_nulls_unhashed(&it[i].node));
	}
	hlist_nulls_add_head_rcu(&it[0].node, &a);
	hlist_nulls_add_head_rcu(&it[1].node, &a);
	hlist_nulls_add_head_rcu(&it[2].node, &a);
	hlist_nulls_add_head_rcu(&it[3].node, &b);
	CHECK(!hlist_nulls_empty(&a));
	CHECK_STR(show(&a), "2 1 0 | nulls 0");
	CHECK_STR(show(&b), "3 | nulls 7");

	hlist_nulls_del_rcu(&it[1].node);
	CHECK(it[1].node.next == &it[0].node);	/* kept for readers */
	CHECK_STR(show(&a), "2 0 | nulls 0");
	hlist_nulls_del_init_rcu(&it[0].node);
	CHECK(hlist_nulls_unhashed(&it[0].node));
	hlist_nulls_del_init_rcu(&it[0].node);
	CHECK_STR(show(&a), "2 | nulls 0");

	/* A reader on chain a stands on it[2] when it moves to chain b:
	 * the walk ends on b's marker, not a's. */
	hlist_nulls_for_each_entry_rcu(e, pos, &a, node) {
		if (e == &it[2]) {
			hlist_nulls_del_init_rcu(&it[2].node);
			hlist_nulls_add_head_rcu(&it[2].node, &b);
		}
		seen++;
	}
	CHECK(seen == 2);		/* it[2], then it[3] on chain b */
	CHECK(is_a_nulls(pos) && get_nulls_value(pos) == 7);
	CHECK_STR(show(&a), "| nulls 0");
	CHECK_STR(show(&b), "2 3 | nulls 7");
	return check_summary();
}
