from datetime import datetime

from mongoengine import (
    DateTimeField,
    Document,
    EmbeddedDocument,
    EmbeddedDocumentField,
    IntField,
    ListField,
    ReferenceField,
    StringField,
)


class Author(Document):
    name = StringField(required=True)
    email = StringField(unique=True)
    slug = StringField(unique=True)
    followers = ListField(StringField())
    meta = {"collection": "authors", "indexes": ["name", ("email", "-joined")]}


class Comment(EmbeddedDocument):
    author = StringField()
    text = StringField()
    at = DateTimeField(default=datetime.utcnow)


class BlogPost(Document):
    title = StringField(required=True)
    author = ReferenceField(Author)
    comments = ListField(EmbeddedDocumentField(Comment))
    tags = ListField(StringField())
    views = IntField(default=0)
    created = DateTimeField(default=datetime.utcnow)
    meta = {
        "indexes": [
            "-created",
            {"fields": ["author", "-created"], "name": "author_recent"},
            "$title",
        ],
        "ordering": ["-created"],
    }


def related_posts(post: BlogPost, limit: int = 5):
    return BlogPost.objects(tags__in=post.tags, id__ne=post.id).order_by("-views").limit(limit)  # expect: unindexed-query
