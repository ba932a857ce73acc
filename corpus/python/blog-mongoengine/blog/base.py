from datetime import datetime

from mongoengine import DateTimeField, Document


class TimestampedDocument(Document):
    """The base of the models that record when they were created and changed."""

    created = DateTimeField(default=datetime.utcnow)
    updated = DateTimeField(default=datetime.utcnow)
    meta = {"abstract": True}

    def touch(self):
        self.updated = datetime.utcnow()
        return self.save()
