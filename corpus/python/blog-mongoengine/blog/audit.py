from mongoengine import DictField, StringField

from .base import TimestampedDocument


class AuditEvent(TimestampedDocument):
    """A document with a collection of its own, though its `Document` base is in another module."""

    actor = StringField(required=True)
    action = StringField(required=True)
    details = DictField()
    meta = {
        "collection": "audit_events",
        "indexes": [
            "actor",  # expect: redundant-index
            ("actor", "-created"),
            "action",
        ],
    }


def record(actor, action, **details):
    AuditEvent(actor=actor, action=action, details=details).save()


def trail(actor, limit=50):
    return AuditEvent.objects(actor=actor).order_by("-created").limit(limit)


def since(when):
    # ok: the `-created` index the base declares serves it.
    return AuditEvent.objects(created__gte=when).order_by("-created")
