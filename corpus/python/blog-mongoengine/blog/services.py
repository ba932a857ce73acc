from .persistence import Thread

MAX_WATCHERS = 50


def reply(thread, reply_id):
    # `Thread` stands for the document its `impl` wraps, in another module.
    Thread.update(thread, push__replies=reply_id)  # expect: unbounded-push


def watch(thread, user_id):
    changes = {"set__updated_by": user_id}
    if len(thread.watchers) < MAX_WATCHERS:
        changes["add_to_set__watchers"] = user_id  # ok: unbounded-push — the size check bounds it
    Thread.update(thread, **changes)


def close(thread, user_id):
    changes = {"set__closed": True}
    changes["push__history"] = {"by": user_id, "action": "close"}  # expect: unbounded-push
    Thread.update(thread, **changes)
