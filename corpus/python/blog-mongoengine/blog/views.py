from flask import Blueprint, abort, request
from mongoengine.queryset.visitor import Q

from .models import Author, BlogPost, Comment

bp = Blueprint("blog", __name__)
PER_PAGE = 10


@bp.get("/posts")
def list_posts():
    page = int(request.args.get("page", 1))
    posts = BlogPost.objects(author__ne=None).order_by("-created").skip((page - 1) * PER_PAGE).limit(PER_PAGE)  # expect: skip-paging
    return {"posts": [p.title for p in posts]}


@bp.get("/posts/tagged/<tag>")
def tagged(tag):
    offset = int(request.args.get("offset", 0))
    posts = BlogPost.objects.filter(tags=tag).skip(offset).limit(PER_PAGE)  # expect: skip-paging, unindexed-query
    return {"posts": [p.title for p in posts]}


@bp.get("/posts/first")
def first_page():
    return {"posts": [p.title for p in BlogPost.objects.skip(0).limit(PER_PAGE)]}  # ok: skip-paging — literal


@bp.get("/posts/<post_id>")
def show(post_id):
    BlogPost.objects(id=post_id).update_one(inc__views=1)  # expect: counter-inc
    post = BlogPost.objects(id=post_id).first() or abort(404)
    return {"title": post.title, "views": post.views}


@bp.post("/posts/<post_id>/comments")
def comment(post_id):
    c = Comment(author=request.form["author"], text=request.form["text"])
    BlogPost.objects(id=post_id).update_one(push__comments=c)  # expect: unbounded-push
    return {"ok": True}


@bp.post("/posts/<post_id>/tags")
def add_tag(post_id):
    BlogPost.objects(id=post_id).update_one(add_to_set__tags=request.form["tag"])  # expect: unbounded-push
    return {"ok": True}


@bp.post("/authors/<author_id>/follow")
def follow(author_id):
    author = Author.objects.get(id=author_id)
    author.update(add_to_set__followers=request.form["user"])  # expect: unbounded-push
    return {"ok": True}


@bp.post("/posts/retag")
def retag():
    # QuerySet.update on many posts, by a computed count: neither a counter nor a push.
    BlogPost.objects(tags=request.form["old"]).update(set__tags=[request.form["new"]])  # expect: unindexed-query
    return {"ok": True}


@bp.get("/popular")
def popular():
    hot = BlogPost.objects(Q(views__gt=1000) & Q(tags="featured"))  # expect: unindexed-query
    names = []
    for post in hot:
        # One query per post for its author: an application-side join.
        names.append(Author.objects(id=post.author.id).first().name)  # expect: query-in-loop
    return {"authors": names}


@bp.get("/authors/<author_id>/posts")
def by_author(author_id):
    # Served by the index {author: 1, created: -1}; `qs` is read once, by `count`.
    qs = BlogPost.objects(author=author_id)
    return {"count": qs.count(), "recent": [p.title for p in qs.order_by("-created").limit(5)]}


@bp.get("/authors/by-slug/<slug>")
def by_slug(slug):
    author = Author.objects(slug=slug).first() or abort(404)  # ok: unindexed-query — `slug` is unique, which indexes it
    return {"name": author.name}
