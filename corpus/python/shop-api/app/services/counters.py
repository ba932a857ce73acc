"""Sequences and counters kept in one document per key."""
from pymongo import ReturnDocument

from ..db import db

counters = db.counters


async def next_sequence(name: str) -> int:
    doc = await counters.find_one_and_update(
        {"_id": name},
        {"$inc": {"seq": 1}},  # expect: counter-inc
        upsert=True,
        return_document=ReturnDocument.AFTER,
    )
    return doc["seq"]


async def reserve_block(name: str, size: int) -> range:
    # Importers reserve a block of numbers with one write and hand them out from memory.
    doc = await counters.find_one_and_update(
        {"_id": name},
        {"$inc": {"seq": size}},  # ok: counter-inc — computed amount
        upsert=True,
        return_document=ReturnDocument.AFTER,
    )
    return range(doc["seq"] - size + 1, doc["seq"] + 1)


async def record_view(product_id):
    await db.products.update_one(
        {"_id": product_id},
        {"$inc": {"views": 1}},  # expect: counter-inc
    )


async def reset_all(prefix: str):
    await counters.update_many(
        {"_id": {"$regex": f"^{prefix}"}},
        {"$inc": {"resets": 1}},  # ok: counter-inc — update_many touches many documents
    )
