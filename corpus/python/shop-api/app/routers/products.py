from bson import ObjectId
from fastapi import APIRouter, Query

from ..config import settings
from ..db import db, products

router = APIRouter()


@router.get("/")
async def search(q: str = "", page: int = Query(1, ge=1), category: str | None = None):
    filt = {"$text": {"$search": q}} if q else {}
    if category:
        filt["category"] = category
    cursor = products.find(filt).sort("price", 1).skip((page - 1) * settings.page_size)  # expect: skip-paging
    return await cursor.limit(settings.page_size).to_list(None)


@router.get("/{product_id}")
async def product_page(product_id: str):
    stages = [
        {"$match": {"_id": ObjectId(product_id)}},
        {"$lookup": {"from": "brands", "localField": "brand_id", "foreignField": "_id", "as": "brand"}},
        {"$lookup": {"from": "reviews", "localField": "_id", "foreignField": "product_id", "as": "reviews"}},  # expect: lookup-chain
        {"$lookup": {"from": "users", "localField": "reviews.user_id", "foreignField": "_id", "as": "reviewers"}},
    ]
    docs = await products.aggregate(stages).to_list(1)
    return docs[0] if docs else None


@router.get("/{product_id}/related")
async def related(product_id: str):
    # One join is fine.
    pipeline = [
        {"$match": {"_id": ObjectId(product_id)}},
        {"$lookup": {"from": "products", "localField": "related_ids", "foreignField": "_id", "as": "related"}},  # ok: lookup-chain — single $lookup
        {"$project": {"related.name": 1, "related.price": 1}},
    ]
    return await products.aggregate(pipeline).to_list(1)


@router.post("/{product_id}/reviews")
async def add_review(product_id: str, review: dict):
    await products.update_one(
        {"_id": ObjectId(product_id)},
        {
            "$push": {"reviews": review},  # expect: unbounded-push
            "$inc": {"review_count": 1},
        },
    )


@router.post("/{product_id}/price-history")
async def record_price(product_id: str, price: float):
    # Bucket pattern: at most 100 prices per bucket document; a full bucket gets a new one (upsert).
    await db.price_buckets.update_one(
        {"product_id": ObjectId(product_id), "count": {"$lt": 100}},
        {
            "$push": {"prices": price},  # ok: unbounded-push — bucket bounded by count < 100
            "$inc": {"count": 1},  # ok: counter-inc — the bucket's own count
        },
        upsert=True,
    )


@router.post("/{product_id}/photos")
async def add_photo(product_id: str, url: str):
    await products.update_one(
        {"_id": ObjectId(product_id), "photos.11": {"$exists": False}},
        {"$push": {"photos": url}},  # ok: unbounded-push — filter caps the array at 12
    )


@router.post("/{product_id}/questions")
async def ask(product_id: str, question: dict):
    await products.update_one(
        {"_id": ObjectId(product_id), "$expr": {"$lt": [{"$size": "$questions"}, 200]}},
        {"$push": {"questions": question}},  # ok: unbounded-push — $expr $size bound
    )


@router.get("/stats/by-category")
async def by_category():
    group = {"$group": {"_id": "$category", "skus": {"$push": "$sku"}, "n": {"$sum": 1}}}  # ok: unbounded-push — accumulator
    return await products.aggregate([{"$match": {"active": True}}, group]).to_list(None)  # expect: unindexed-query
