/*
 * lib/rculist.h: the RCU list operations leave each list well linked in
 * both directions, keep a removed or replaced entry's forward pointer
 * for a reader standing on it, and hand the iterators' optional
 * condition to rcu_list_check().
 */
#include "check.h"
#include "lib/rculist.h"

/* lib/rculist_window.h: the kernel holds a race window open here; the
 * host has none. */
bool rcu_list_windows_open;
void rcu_list_window_hold(void)
{
}

struct item {
	int value;
	struct list_head link;
	struct hlist_node hnode;
};

static int checks_called, last_cond;

/* The kernel warns here; the host records what it was given. */
void rcu_list_check(bool cond, const char *file, int line)
{
	(void)file;
	(void)line;
	checks_called++;
	last_cond = cond;
}

static const char *show(struct list_head *head)
{
	static char buf[256];
	struct list_head *prev = head;
	struct item *it;
	size_t len = 0;

	buf[0] = '\0';
	list_for_each_entry_rcu(it, head, link, true) {
		CHECK(it->link.prev == prev);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d",
					len ? " " : "", it->value);
		prev = &it->link;
	}
	CHECK(head->prev == prev);
	return buf;
}

static const char *show_hlist(struct hlist_head *h)
{
	static char buf[256];
	struct hlist_node **pprev = &h->first;
	struct item *it;
	size_t len = 0;

	buf[0] = '\0';
	hlist_for_each_entry_rcu(it, h, hnode, true) {
		CHECK(it->hnode.pprev == pprev);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d",
					len ? " " : "", it->value);
		pprev = &it->hnode.next;
	}
	return buf;
}

static int syncs;

static void count_sync(void)
{
	syncs++;
}

static void test_condition_reaches_the_check(void)
{
	LIST_HEAD(head);
	struct item *it;
	int held = 0;

	checks_called = 0;
	list_for_each_entry_rcu(it, &head, link)
		;
	CHECK(checks_called == 1 && last_cond == 0);
	list_for_each_entry_rcu(it, &head, link, held == 0)
		;
	CHECK(checks_called == 2 && last_cond == 1);
	list_for_each_entry_rcu(it, &head, link, held == 1)
		;
	CHECK(checks_called == 3 && last_cond == 0);
}

static void test_splice_init_rcu(void)
{
	LIST_HEAD(a);
	LIST_HEAD(b);
	struct item it[5];
	int i;

	for (i = 0; i < 5; i++)
		it[i].value = i;
	syncs = 0;
	list_splice_init_rcu(&b, &a, count_sync);
	CHECK(syncs == 0);		/* nothing to splice, no wait */
	list_add_tail_rcu(&it[0].link, &a);
	list_add_tail_rcu(&it[1].link, &a);
	list_add_tail_rcu(&it[2].link, &b);
	list_add_tail_rcu(&it[3].link, &b);
	list_splice_init_rcu(&b, &a, count_sync);
	CHECK(syncs == 1);
	CHECK_STR(show(&a), "2 3 0 1");
	CHECK_STR(show(&b), "");
	list_add_tail_rcu(&it[4].link, &b);
	list_splice_tail_init_rcu(&b, &a, count_sync);
	CHECK(syncs == 2);
	CHECK_STR(show(&a), "2 3 0 1 4");
	CHECK(list_empty(&b));
}

static void test_hlist_add_replace(void)
{
	struct hlist_head h = HLIST_HEAD_INIT;
	struct item it[5], *pos;
	int i, seen;

	for (i = 0; i < 5; i++)
		it[i].value = i;
	hlist_add_head_rcu(&it[1].hnode, &h);
	hlist_add_before_rcu(&it[0].hnode, &it[1].hnode);
	CHECK_STR(show_hlist(&h), "0 1");
	hlist_add_behind_rcu(&it[3].hnode, &it[1].hnode);
	CHECK_STR(show_hlist(&h), "0 1 3");
	hlist_add_behind_rcu(&it[2].hnode, &it[1].hnode);
	CHECK_STR(show_hlist(&h), "0 1 2 3");

	/* A reader standing on the replaced entry walks on. */
	hlist_replace_rcu(&it[1].hnode, &it[4].hnode);
	CHECK_STR(show_hlist(&h), "0 4 2 3");
	CHECK(it[1].hnode.next == &it[2].hnode);
	hlist_replace_rcu(&it[0].hnode, &it[1].hnode);
	CHECK_STR(show_hlist(&h), "1 4 2 3");
	hlist_replace_rcu(&it[3].hnode, &it[0].hnode);
	CHECK_STR(show_hlist(&h), "1 4 2 0");

	pos = &it[4];
	seen = 0;
	hlist_for_each_entry_continue_rcu(pos, hnode)
		seen = seen * 10 + pos->value;
	CHECK(seen == 20);
	pos = &it[4];
	seen = 0;
	hlist_for_each_entry_from_rcu(pos, hnode)
		seen = seen * 10 + pos->value;
	CHECK(seen == 420);
}

int main(void)
{
	test_condition_reaches_the_check();
	test_splice_init_rcu();
	test_hlist_add_replace();
	return check_summary();
}
