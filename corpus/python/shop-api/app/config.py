from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    mongo_url: str = "mongodb://localhost:27017"
    database_name: str = "shop"
    audit_collection: str = "audit_log"
    collection_prefix: str = ""
    page_size: int = 20


settings = Settings()
