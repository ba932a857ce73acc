from mongoengine import BooleanField, Document, ListField, StringField

from .access import ModelAccess


class ThreadDB(Document):
    title = StringField(required=True)
    closed = BooleanField(default=False)
    replies = ListField(StringField())
    watchers = ListField(StringField())
    meta = {"collection": "threads"}


thread_access = ModelAccess(ThreadDB)
