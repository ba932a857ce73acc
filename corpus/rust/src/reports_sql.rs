//! Legacy reporting over Postgres (sqlx): offset paging here is SQL, not MongoDB.

use sqlx::PgPool;

pub struct Row {
    pub id: i64,
    pub total: f64,
}

pub async fn invoices(pool: &PgPool, page: i64) -> sqlx::Result<Vec<(i64, f64)>> {
    let rows = sqlx::query_as::<_, (i64, f64)>("SELECT id, total FROM invoices ORDER BY id LIMIT 20 OFFSET $1")
        .bind(page * 20)
        .fetch_all(pool)
        .await?;
    let skipped: Vec<(i64, f64)> = rows.iter().cloned().skip(page as usize).collect(); // ok: skip-paging — Iterator::skip
    let mut found = Vec::new();
    found.push(skipped.first().cloned());
    Ok(rows)
}

pub fn find_first(rows: &[Row], id: i64) -> Option<&Row> {
    rows.iter().find(|r| r.id == id)
}
