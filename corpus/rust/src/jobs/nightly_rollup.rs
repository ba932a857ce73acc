//! Nightly rollup, run by the scheduler at 02:00.

use mongodb::bson::{doc, Document};
use mongodb::Database;

pub async fn run(db: &Database) -> mongodb::error::Result<()> {
    let daily = db.collection::<Document>("daily_stats");
    let summary = db.collection::<Document>("summary");
    let mut cursor = daily.find(doc! { "rolled_up": false }).await?;
    while cursor.advance().await? {
        let day = cursor.deserialize_current()?;
        summary
            .update_one(
                doc! { "_id": "totals" },
                doc! { "$inc": { "days": 1 } }, // ok: counter-inc — a periodic batch job (jobs/)
            )
            .await?;
        daily
            .update_one(doc! { "_id": day.get_object_id("_id").unwrap() }, doc! { "$set": { "rolled_up": true } })
            .await?;
    }
    Ok(())
}
