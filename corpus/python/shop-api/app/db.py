"""Database handles shared by the routers (motor, asyncio)."""
import os

from motor.motor_asyncio import AsyncIOMotorClient, AsyncIOMotorDatabase
from pymongo import ASCENDING, DESCENDING, IndexModel

from .config import settings

client = AsyncIOMotorClient(settings.mongo_url)
db = client[settings.database_name]

ORDERS = "orders"

orders = db[ORDERS]
products = db.products
users = db.get_collection("users")
carts = client.shop.carts
sessions = client["shop"]["sessions"]
coupons = db.coupons

# Names that come from configuration or the environment are one collection each: not dynamic.
audit = db[settings.audit_collection]  # ok: dynamic-collection-name — from settings
events_raw = db[os.environ["EVENTS_COLLECTION"]]  # ok: dynamic-collection-name — from the environment
logs = db[settings.collection_prefix + "logs"]  # ok: dynamic-collection-name — config prefix + fixed suffix
cache = db["cache" + "_v2"]  # ok: dynamic-collection-name — fixed prefix and suffix


async def get_db() -> AsyncIOMotorDatabase:
    return db


async def ensure_indexes() -> None:
    await orders.create_index([("customer_id", ASCENDING), ("created_at", DESCENDING)])
    await orders.create_index("status")
    await products.create_indexes(
        [
            IndexModel([("sku", ASCENDING)], unique=True, name="sku_unique"),
            IndexModel([("category", ASCENDING), ("price", ASCENDING)]),
        ]
    )
    await sessions.create_index("expires_at", expireAfterSeconds=0)
    await coupons.create_index("code", unique=True)
    await coupons.create_index([("code", ASCENDING), ("expires_at", ASCENDING)])  # ok: redundant-index — the shorter one is unique
