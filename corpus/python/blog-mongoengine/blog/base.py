from datetime import datetime

from mongoengine import DateTimeField, Document


class TimestampedDocument(Document):
    """The base of the models that record when they were created and changed."""

    created = DateTimeField(default=datetime.utcnow)
    updated = DateTimeField(default=datetime.utcnow)
    # Every model deriving from this one has the index: mongoengine merges an abstract base's
    # indexes into its subclasses'.
    meta = {"abstract": True, "indexes": ["-created"]}

    def touch(self):
        self.updated = datetime.utcnow()
        return self.save()
