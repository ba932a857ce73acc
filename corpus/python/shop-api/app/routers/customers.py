"""Customer pages: order history, reorder suggestions, coupon usage."""
from bson import ObjectId
from fastapi import APIRouter
from pymongo import DESCENDING

from ..db import coupons, orders, products

router = APIRouter()


@router.get("/customers/{customer_id}/orders")
async def order_history(customer_id: str):
    # ok: unindexed-query — equality on customer_id, then the sort: (customer_id, created_at desc)
    return await orders.find({"customer_id": ObjectId(customer_id)}).sort("created_at", DESCENDING).to_list(50)


@router.get("/orders/by-number/{number}")
async def order_by_number(number: int):
    return await orders.find_one({"number": number})  # expect: unindexed-query


@router.get("/customers/{customer_id}/reorder")
async def reorder_suggestions(customer_id: str):
    recent = await orders.find({"customer_id": ObjectId(customer_id)}).sort("created_at", -1).to_list(5)
    suggestions = []
    for order in recent:
        for line in order["items"]:
            product = await products.find_one({"sku": line["sku"]}, {"name": 1, "price": 1})  # expect: query-in-loop
            suggestions.append(product)
    return suggestions


@router.get("/orders/stale")
async def stale_orders(before: str):
    # ok: unindexed-query — the status index bounds the scan; created_at is filtered in the fetch
    return await orders.find({"status": "pending", "created_at": {"$lt": before}}).to_list(100)


@router.get("/coupons/{code}/usage")
async def coupon_usage(code: str):
    pipeline = [
        {"$match": {"code": code}},
        {
            "$lookup": {
                "from": "orders",
                "localField": "code",
                "foreignField": "coupon_code",  # expect: lookup-unindexed-foreign-field
                "as": "orders",
            }
        },
    ]
    return await coupons.aggregate(pipeline).to_list(1)
