/*
 * lib/list.h: list and hlist operations, checked by walking the links in
 * both directions after each step.
 */
#include "check.h"
#include "lib/list.h"

struct item {
	int value;
	struct list_head link;
	struct hlist_node hnode;
};

/* Render the list as "1 2 3", checking prev links mirror next links. */
static const char *show(struct list_head *head)
{
	static char buf[256];
	struct list_head *pos, *prev = head;
	size_t len = 0;

	buf[0] = '\0';
	list_for_each(pos, head) {
		struct item *it = list_entry(pos, struct item, link);

		CHECK(pos->prev == prev);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d",
					len ? " " : "", it->value);
		prev = pos;
	}
	CHECK(head->prev == prev);
	return buf;
}

static void test_add_del(void)
{
	LIST_HEAD(head);
	struct item it[5];
	int i;

	for (i = 0; i < 5; i++)
		it[i].value = i;
	CHECK(list_empty(&head));
	CHECK(!list_is_singular(&head));
	CHECK_STR(show(&head), "");

	list_add_tail(&it[1].link, &head);
	CHECK(!list_empty(&head));
	CHECK(list_is_singular(&head));
	list_add_tail(&it[2].link, &head);
	CHECK(!list_is_singular(&head));
	list_add(&it[0].link, &head);
	list_add_tail(&it[3].link, &head);
	CHECK_STR(show(&head), "0 1 2 3");
	CHECK(list_first_entry(&head, struct item, link) == &it[0]);

	list_del(&it[2].link);
	CHECK(it[2].link.next == LIST_POISON1);
	CHECK(it[2].link.prev == LIST_POISON2);
	CHECK_STR(show(&head), "0 1 3");

	list_del_init(&it[0].link);
	CHECK(list_empty(&it[0].link));
	list_del_init(&it[0].link);
	CHECK_STR(show(&head), "1 3");

	list_move(&it[3].link, &head);
	CHECK_STR(show(&head), "3 1");
	list_move_tail(&it[3].link, &head);
	CHECK_STR(show(&head), "1 3");
	list_move_tail(&it[3].link, &head);
	CHECK_STR(show(&head), "1 3");

	list_del(&it[1].link);
	list_del(&it[3].link);
	CHECK(list_empty(&head));
	CHECK_STR(show(&head), "");
}

static void test_iterate(void)
{
	struct list_head head;
	struct item it[6], *pos, *n;
	int i, sum = 0, seen = 0;

	INIT_LIST_HEAD(&head);
	for (i = 0; i < 6; i++) {
		it[i].value = i;
		list_add_tail(&it[i].link, &head);
	}
	list_for_each_entry(pos, &head, link) {
		CHECK(pos->value == seen);
		seen++;
	}
	CHECK(seen == 6);

	/* Delete the even ones while walking. */
	list_for_each_entry_safe(pos, n, &head, link) {
		if (pos->value % 2 == 0)
			list_del(&pos->link);
		else
			sum += pos->value;
	}
	CHECK(sum == 1 + 3 + 5);
	CHECK_STR(show(&head), "1 3 5");

	list_for_each_entry_safe(pos, n, &head, link)
		list_del(&pos->link);
	CHECK(list_empty(&head));
	seen = 0;
	list_for_each_entry(pos, &head, link)
		seen++;
	CHECK(seen == 0);
}

static void test_splice(void)
{
	LIST_HEAD(a);
	LIST_HEAD(b);
	struct item it[5];
	int i;

	for (i = 0; i < 5; i++)
		it[i].value = i;
	list_splice_init(&b, &a);
	CHECK(list_empty(&a) && list_empty(&b));

	list_add_tail(&it[0].link, &a);
	list_add_tail(&it[1].link, &a);
	list_add_tail(&it[2].link, &b);
	list_add_tail(&it[3].link, &b);
	list_splice_init(&b, &a);
	CHECK(list_empty(&b));
	CHECK_STR(show(&a), "2 3 0 1");
	CHECK_STR(show(&b), "");

	list_add_tail(&it[4].link, &b);
	list_splice_init(&a, &b);
	CHECK(list_empty(&a));
	CHECK_STR(show(&b), "2 3 0 1 4");

	list_splice_init(&b, &a);
	CHECK_STR(show(&a), "2 3 0 1 4");
	CHECK(list_empty(&b));
}

static const char *show_hlist(struct hlist_head *h)
{
	static char buf[256];
	struct hlist_node **pprev = &h->first;
	struct item *it;
	size_t len = 0;

	buf[0] = '\0';
	hlist_for_each_entry(it, h, hnode) {
		CHECK(it->hnode.pprev == pprev);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d",
					len ? " " : "", it->value);
		pprev = &it->hnode.next;
	}
	return buf;
}

static void test_hlist(void)
{
	struct hlist_head h = HLIST_HEAD_INIT;
	struct hlist_node *n;
	struct item it[4], *pos;
	int i;

	INIT_HLIST_HEAD(&h);
	CHECK(hlist_empty(&h));
	CHECK_STR(show_hlist(&h), "");
	for (i = 0; i < 4; i++) {
		it[i].value = i;
		INIT_HLIST_NODE(&it[i].hnode);
		CHECK(hlist_unhashed(&it[i].hnode));
	}
	hlist_add_head(&it[0].hnode, &h);
	hlist_add_head(&it[1].hnode, &h);
	hlist_add_head(&it[2].hnode, &h);
	CHECK(!hlist_empty(&h));
	CHECK(!hlist_unhashed(&it[1].hnode));
	CHECK_STR(show_hlist(&h), "2 1 0");

	hlist_del(&it[1].hnode);
	CHECK(it[1].hnode.next == LIST_POISON1);
	CHECK((void *)it[1].hnode.pprev == LIST_POISON2);
	CHECK_STR(show_hlist(&h), "2 0");

	hlist_del_init(&it[2].hnode);
	CHECK(hlist_unhashed(&it[2].hnode));
	hlist_del_init(&it[2].hnode);
	hlist_del_init(&it[3].hnode);
	CHECK_STR(show_hlist(&h), "0");

	hlist_add_head(&it[2].hnode, &h);
	hlist_add_head(&it[3].hnode, &h);
	CHECK_STR(show_hlist(&h), "3 2 0");
	hlist_del(&it[0].hnode);
	CHECK_STR(show_hlist(&h), "3 2");

	hlist_add_head(&it[0].hnode, &h);
	hlist_for_each_entry_safe(pos, n, &h, hnode)
		if (pos->value != 2)
			hlist_del(&pos->hnode);
	CHECK_STR(show_hlist(&h), "2");
	hlist_for_each_entry_safe(pos, n, &h, hnode)
		hlist_del_init(&pos->hnode);
	CHECK(hlist_empty(&h));
}

int main(void)
{
	test_add_del();
	test_iterate();
	test_splice();
	test_hlist();
	return check_summary();
}
