from datetime import datetime, timezone

from bson import ObjectId
from fastapi import APIRouter, Depends
from motor.motor_asyncio import AsyncIOMotorDatabase

from ..db import get_db

router = APIRouter()


@router.post("/{user_id}/login")
async def login(user_id: str, db: AsyncIOMotorDatabase = Depends(get_db)):
    await db.users.update_one(
        {"_id": ObjectId(user_id)},
        {
            "$set": {"last_login": datetime.now(timezone.utc)},
            "$inc": {"login_count": 1},  # expect: counter-inc
        },
    )


@router.post("/{user_id}/follow/{other_id}")
async def follow(user_id: str, other_id: str, db: AsyncIOMotorDatabase = Depends(get_db)):
    await db.users.update_one({"_id": ObjectId(other_id)}, {"$addToSet": {"followers": user_id}})  # expect: unbounded-push
    await db.users.update_one({"_id": ObjectId(user_id)}, {"$addToSet": {"following": other_id}})  # expect: unbounded-push


@router.post("/{user_id}/seen")
async def mark_seen(user_id: str, items: list[str], db: AsyncIOMotorDatabase = Depends(get_db)):
    # Recently viewed: capped at 20 (positive slice keeps the first 20).
    await db.users.update_one(
        {"_id": ObjectId(user_id)},
        {"$push": {"recently_viewed": {"$each": items, "$position": 0, "$slice": 20}}},  # ok: unbounded-push — $slice
    )


@router.get("/")
async def list_users(page: int = 0, size: int = 50, db: AsyncIOMotorDatabase = Depends(get_db)):
    cursor = db.users.find({}, {"password": 0})
    cursor = cursor.sort("created_at", -1)
    cursor = cursor.skip(page * size).limit(size)  # expect: skip-paging
    return await cursor.to_list(size)


@router.get("/count")
async def count_users(status: str, db: AsyncIOMotorDatabase = Depends(get_db)):
    return await db.users.count_documents({"status": status}, skip=0, limit=10_000)  # ok: skip-paging — literal


@router.get("/{user_id}/inbox")
async def inbox(user_id: str, page: int = 1, db: AsyncIOMotorDatabase = Depends(get_db)):
    # Per-user collections: one collection per user.
    messages = db.get_collection(f"inbox_{user_id}")  # expect: dynamic-collection-name
    return await messages.find().sort("at", -1).limit(50).to_list(50)
