from datetime import datetime, timezone

from bson import ObjectId
from fastapi import APIRouter, Depends, HTTPException
from pymongo import DESCENDING, ReturnDocument, UpdateOne

from ..db import orders, products
from ..services.counters import next_sequence

router = APIRouter()
PAGE_SIZE = 20


@router.post("/")
async def place_order(body: dict, user=Depends(lambda: None)):
    number = await next_sequence("order_number")
    doc = {
        "number": number,
        "customer_id": ObjectId(user["id"]),
        "items": body["items"],
        "status": "pending",
        "status_history": [{"status": "pending", "at": datetime.now(timezone.utc)}],
        "created_at": datetime.now(timezone.utc),
    }
    result = await orders.insert_one(doc)
    # Reserve stock: one conditional decrement per line, by the ordered quantity.
    await products.bulk_write(
        [
            UpdateOne(
                {"_id": ObjectId(line["product_id"]), "stock": {"$gte": line["qty"]}},
                {"$inc": {"stock": -line["qty"]}},  # ok: counter-inc — computed amount
            )
            for line in body["items"]
        ]
    )
    return {"_id": str(result.inserted_id), "number": number}


@router.get("/")
async def list_orders(page: int = 1, user=Depends(lambda: None)):
    offset = (page - 1) * PAGE_SIZE
    cursor = orders.find(
        {"customer_id": ObjectId(user["id"])},
        projection={"items": 0, "status_history": 0},
        sort=[("created_at", DESCENDING)],
        skip=offset,  # expect: skip-paging
        limit=PAGE_SIZE,
    )
    return await cursor.to_list(PAGE_SIZE)


@router.get("/recent")
async def recent_orders(after: str | None = None):
    query = {"_id": {"$lt": ObjectId(after)}} if after else {}
    # Keyset paging: no skip at all; the first page starts at skip(0).
    cursor = orders.find(query).sort("_id", DESCENDING).skip(0).limit(PAGE_SIZE)  # ok: skip-paging — literal
    return await cursor.to_list(PAGE_SIZE)


@router.post("/{order_id}/status")
async def set_status(order_id: str, status: str, note: str = ""):
    entry = {"status": status, "note": note, "at": datetime.now(timezone.utc)}
    updated = await orders.find_one_and_update(
        {"_id": ObjectId(order_id)},
        {
            "$set": {"status": status},
            "$push": {"status_history": entry},  # expect: unbounded-push
        },
        return_document=ReturnDocument.AFTER,
    )
    if updated is None:
        raise HTTPException(404)
    return updated


@router.post("/{order_id}/notes")
async def add_note(order_id: str, text: str):
    # Only the last 50 notes are kept.
    await orders.update_one(
        {"_id": ObjectId(order_id)},
        {"$push": {"notes": {"$each": [{"text": text}], "$slice": -50}}},  # ok: unbounded-push — $each + $slice
    )


@router.post("/{order_id}/tags")
async def tag_order(order_id: str, tags: list[str]):
    await orders.update_one(
        {"_id": ObjectId(order_id)},
        {"$addToSet": {"tags": {"$each": tags}}},  # expect: unbounded-push
    )


@router.get("/{order_id}/timeline")
async def timeline(order_id: str, offset: int = 0):
    pipeline = [{"$match": {"_id": ObjectId(order_id)}}, {"$unwind": "$status_history"}]
    pipeline.append({"$sort": {"status_history.at": -1}})
    pipeline.append({"$skip": offset})  # expect: skip-paging
    pipeline.append({"$limit": PAGE_SIZE})
    return await orders.aggregate(pipeline).to_list(PAGE_SIZE)
