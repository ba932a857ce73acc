#!/usr/bin/env python3
"""Generate a large synthetic monorepo for benchmarking mongolint against its peers.

Deterministic: the same --seed, --files and --driver-share give byte-identical output.
The mix follows what the real applications under /work/realapps look like: most files are ordinary code
(React components, utilities, services that call HTTP APIs, Python modules, Rust modules), some of which
use words that also belong to the driver vocabulary (`model`, `collection`, `skip`, `find`, `push`,
`db.`); a minority (default 12%) are driver files modelled on corpus/: Node driver routes, Mongoose
models and services, NestJS services, pymongo/motor routers, mongoengine views, Rust `mongodb` handlers.
Each driver file contains one instance of each of the five mission rules' patterns, plus near misses
(bounded `$push`, a literal skip, a constant collection name, a single `$lookup`, a computed `$inc`).

Usage: gen_repo.py [--dest /tmp/mongolint-bench] [--files 30000] [--driver-share 0.12] [--seed 6]
No test folders, node_modules or build output are generated, so every tool sees the same files.
"""

import argparse
import json
import os
import random
import shutil

WORDS = (
    "account order invoice product user session cart payment shipment review comment post feed "
    "notification message thread channel team project task ticket report metric event audit "
    "profile address coupon discount inventory warehouse supplier customer tenant workspace "
    "device sensor reading alert incident deployment build artifact release package plugin "
    "subscription plan quota usage billing ledger transfer wallet token credential role "
    "permission group member invite document folder file upload asset image video playlist "
    "track album artist course lesson quiz grade student teacher course booking room hotel "
    "flight trip route stop vehicle driver parcel label tag category brand catalog price"
).split()

FIELDS = (
    "comments likes followers tags history events items entries readings logs views "
    "visits logins votes shares clicks downloads attachments watchers members scores"
).split()

COUNTERS = "views likes loginCount visits hits downloads shares clicks opens replies".split()

LOOKALIKE_SHARE = 0.12

VERBS = "load fetch build compute render format parse validate merge filter sort group map".split()


def camel(*parts):
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def pascal(*parts):
    return "".join(p[:1].upper() + p[1:] for p in parts)


def snake(*parts):
    return "_".join(parts)


def plural(w):
    if w.endswith("y") and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    if w.endswith(("s", "x", "ch", "sh")):
        return w + "es"
    return w + "s"


class Gen:
    def __init__(self, rng):
        self.rng = rng

    def w(self):
        return self.rng.choice(WORDS)

    def ws(self, n):
        return self.rng.sample(WORDS, n)

    def field(self):
        return self.rng.choice(FIELDS)

    # ------------------------------------------------------------------ ordinary JS / TS

    def js_util_fn(self, ts, lookalike):
        a, b = self.ws(2)
        verb = self.rng.choice(VERBS)
        name = camel(verb, a, b)
        t = ": any[]" if ts else ""
        r = ": number" if ts else ""
        # kind 4 names a parameter `collection` (lodash style): only in look-alike files.
        kind = self.rng.randrange(6) if lookalike else self.rng.choice([0, 1, 2, 3, 5])
        if kind == 0:
            return f"""export function {name}(items{t}, key{': string' if ts else ''}){r} {{
  let total = 0;
  for (const item of items) {{
    if (item && item[key] != null) {{
      total += Number(item[key]) || 0;
    }}
  }}
  return total;
}}
"""
        if kind == 1:
            return f"""export const {name} = (list{t}) => {{
  const seen = new Set();
  const out = [];
  for (const x of list) {{
    const id = x.{a}Id ?? x.id;
    if (!seen.has(id)) {{
      seen.add(id);
      out.push(x);
    }}
  }}
  return out.find((x) => x.active) ? out : out.slice(0, 10);
}};
"""
        if kind == 2:
            return f"""export async function {name}(client, id) {{
  const res = await client.get(`/api/{plural(a)}/${{id}}/{plural(b)}`);
  if (res.status !== 200) {{
    throw new Error(`cannot {verb} {a} ${{id}}: ${{res.status}}`);
  }}
  const body = await res.json();
  return body.data.map((row) => ({{
    id: row.id,
    name: row.name,
    {b}Count: row.{plural(b)}?.length ?? 0,
  }}));
}}
"""
        if kind == 3:
            return f"""export function {name}(value, options = {{}}) {{
  const {{ locale = 'en-US', currency = 'USD' }} = options;
  if (typeof value !== 'number' || Number.isNaN(value)) {{
    return '';
  }}
  return new Intl.NumberFormat(locale, {{ style: 'currency', currency }}).format(value);
}}
"""
        if kind == 4:
            return f"""export function {name}(collection, predicate) {{
  // Works on arrays and plain objects alike, like lodash's filter.
  const values = Array.isArray(collection) ? collection : Object.values(collection || {{}});
  const result = [];
  values.forEach((value, index) => {{
    if (predicate(value, index)) result.push(value);
  }});
  return result;
}}
"""
        return f"""export class {pascal(a, b, 'Cache')} {{
  constructor(limit = 100) {{
    this.limit = limit;
    this.entries = new Map();
  }}

  get(key) {{
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }}

  set(key, value) {{
    if (this.entries.size >= this.limit) {{
      const oldest = this.entries.keys().next().value;
      this.entries.delete(oldest);
    }}
    this.entries.set(key, value);
  }}
}}
"""

    def js_ordinary(self, ts):
        a = self.w()
        head = []
        if self.rng.random() < 0.5:
            head.append(f"import {{ {camel('format', a)} }} from './{a}Format';")
        if self.rng.random() < 0.3:
            head.append("import axios from 'axios';")
        # About one ordinary file in eight uses words of the driver vocabulary in another sense
        # (MVC or ML models, lodash collections), as in the real applications under /work/realapps.
        lookalike = self.rng.random() < LOOKALIKE_SHARE
        if lookalike and self.rng.random() < 0.5:
            head.append(f"// The view model for the {a} screen; the model is refreshed on focus.")
        n = self.rng.randint(4, 14)
        body = [self.js_util_fn(ts, lookalike) for _ in range(n)]
        return "\n".join(head) + "\n\n" + "\n".join(body)

    def react_component(self, ts):
        a, b = self.ws(2)
        comp = pascal(a, b, self.rng.choice(["List", "Card", "Panel", "View", "Form", "Table"]))
        props = f"{comp}Props"
        typ = ""
        if ts:
            typ = f"""interface {props} {{
  {plural(a)}: Array<{{ id: string; name: string; {b}: number }}>;
  onSelect?: (id: string) => void;
  pageSize?: number;
}}

"""
        sig = f"{{ {plural(a)}, onSelect, pageSize = 20 }}: {props}" if ts else f"{{ {plural(a)}, onSelect, pageSize = 20 }}"
        extra = []
        for i in range(self.rng.randint(1, 6)):
            h = camel("handle", self.w(), str(i))
            extra.append(f"""  const {h} = useCallback((event) => {{
    event.preventDefault();
    setPage((p) => Math.max(0, p + {i % 3 - 1}));
    if (onSelect) onSelect(String(event.currentTarget.dataset.id));
  }}, [onSelect]);
""")
        return f"""import React, {{ useCallback, useMemo, useState }} from 'react';
import styles from './{comp}.module.css';

{typ}export function {comp}({sig}) {{
  const [page, setPage] = useState(0);
  const [query, setQuery] = useState('');
  const visible = useMemo(() => {{
    const q = query.trim().toLowerCase();
    const filtered = {plural(a)}.filter((x) => x.name.toLowerCase().includes(q));
    return filtered.slice(page * pageSize, (page + 1) * pageSize);
  }}, [{plural(a)}, query, page, pageSize]);

{''.join(extra)}
  return (
    <div className={{styles.root}}>
      <input value={{query}} onChange={{(e) => setQuery(e.target.value)}} placeholder="Search {plural(a)}" />
      <ul>
        {{visible.map((item) => (
          <li key={{item.id}} data-id={{item.id}}>
            <span className={{styles.name}}>{{item.name}}</span>
            <span className={{styles.{b}}}>{{item.{b}}}</span>
          </li>
        ))}}
      </ul>
      <button onClick={{() => setPage(page + 1)}}>Next</button>
    </div>
  );
}}

export default {comp};
"""

    # ------------------------------------------------------------------ driver JS / TS

    def js_driver(self, ts):
        coll, other, third = self.ws(3)
        colls = plural(coll)
        f = self.field()
        c = self.rng.choice(COUNTERS)
        kind = self.rng.randrange(3)
        typ = ": any" if ts else ""
        router = camel(coll, "Router")
        if kind == 0:
            # Node driver, express routes.
            return f"""'use strict';

const express = require('express');
const {{ ObjectId }} = require('mongodb');
const {{ db }} = require('../db');

const {router} = express.Router();
const {colls} = db.collection('{colls}');
const PAGE_SIZE = 25;

{router}.get('/', async (req{typ}, res{typ}, next{typ}) => {{
  try {{
    const page = Number(req.query.page || 1);
    const rows = await {colls}
      .find({{ status: 'active' }})
      .sort({{ createdAt: -1 }})
      .skip((page - 1) * PAGE_SIZE)
      .limit(PAGE_SIZE)
      .toArray();
    res.json(rows);
  }} catch (err) {{
    next(err);
  }}
}});

{router}.get('/first', async (req{typ}, res{typ}) => {{
  const rows = await {colls}.find({{}}).skip(0).limit(10).toArray();
  res.json(rows);
}});

{router}.post('/:id/{f}', async (req{typ}, res{typ}) => {{
  await {colls}.updateOne(
    {{ _id: new ObjectId(req.params.id) }},
    {{ $push: {{ {f}: {{ by: req.user.id, at: new Date(), body: req.body.text }} }} }},
  );
  await {colls}.updateOne(
    {{ _id: new ObjectId(req.params.id) }},
    {{ $push: {{ recent{pascal(f)}: {{ $each: [req.body.text], $slice: -20 }} }} }},
  );
  res.sendStatus(204);
}});

{router}.get('/:id', async (req{typ}, res{typ}) => {{
  const doc = await {colls}.findOneAndUpdate(
    {{ _id: new ObjectId(req.params.id) }},
    {{ $inc: {{ {c}: 1 }} }},
    {{ returnDocument: 'after' }},
  );
  await {colls}.updateOne({{ _id: doc._id }}, {{ $inc: {{ total: req.body.amount }} }});
  res.json(doc);
}});

{router}.get('/:id/full', async (req{typ}, res{typ}) => {{
  const pipeline = [
    {{ $match: {{ _id: new ObjectId(req.params.id) }} }},
    {{ $lookup: {{ from: '{plural(other)}', localField: '{other}Id', foreignField: '_id', as: '{other}' }} }},
    {{ $lookup: {{ from: '{plural(third)}', localField: '{third}Id', foreignField: '_id', as: '{third}' }} }},
  ];
  const [row] = await {colls}.aggregate(pipeline).toArray();
  const single = await {colls}
    .aggregate([{{ $lookup: {{ from: '{plural(other)}', localField: 'a', foreignField: 'b', as: 'c' }} }}])
    .toArray();
  res.json({{ row, single }});
}});

async function archive{pascal(colls)}(tenantId{typ}) {{
  const day = new Date().toISOString().slice(0, 10);
  const daily = db.collection(`{colls}_${{day}}`);
  const perTenant = db.collection('{colls}_' + tenantId);
  const fixed = db.collection('{colls}_archive');
  await daily.insertOne({{ at: new Date() }});
  await perTenant.insertOne({{ at: new Date() }});
  await fixed.insertOne({{ at: new Date() }});
}}

module.exports = {{ {router}, archive{pascal(colls)} }};
"""
        if kind == 1:
            # Mongoose model + service in one module.
            Model = pascal(coll)
            return f"""import mongoose from 'mongoose';

const {Model}Schema = new mongoose.Schema({{
  name: {{ type: String, required: true }},
  owner: {{ type: mongoose.Schema.Types.ObjectId, ref: 'User', index: true }},
  {other}: {{ type: mongoose.Schema.Types.ObjectId, ref: '{pascal(other)}' }},
  {third}: {{ type: mongoose.Schema.Types.ObjectId, ref: '{pascal(third)}' }},
  {f}: [{{ type: mongoose.Schema.Types.ObjectId, ref: 'User' }}],
  {c}: {{ type: Number, default: 0 }},
  createdAt: {{ type: Date, default: Date.now }},
}});

{Model}Schema.index({{ owner: 1, createdAt: -1 }});

export const {Model} = mongoose.model('{Model}', {Model}Schema);

export async function list{pascal(colls)}(page{typ}, perPage{typ}) {{
  return {Model}.find({{ owner: page.owner }})
    .populate('{other}')
    .populate('{third}')
    .sort({{ createdAt: -1 }})
    .skip(page.number * perPage)
    .limit(perPage)
    .lean();
}}

export async function like{Model}(id{typ}, userId{typ}) {{
  await {Model}.findByIdAndUpdate(id, {{ $addToSet: {{ {f}: userId }} }});
  return {Model}.findByIdAndUpdate(id, {{ $inc: {{ {c}: 1 }} }}, {{ new: true }});
}}

export async function first{pascal(colls)}() {{
  return {Model}.find({{}}).populate('owner').skip(0).limit(5);
}}

export async function rename{Model}(id{typ}, name{typ}) {{
  const doc = await {Model}.findById(id);
  doc.name = name;
  doc.{f}.push(name);
  await doc.save();
  return doc;
}}
"""
        # NestJS-style service with an injected model.
        Model = pascal(coll)
        return f"""import {{ Injectable }} from '@nestjs/common';
import {{ InjectModel }} from '@nestjs/mongoose';
import {{ Model }} from 'mongoose';

@Injectable()
export class {Model}Service {{
  constructor(@InjectModel('{Model}') private readonly {coll}Model: Model<any>) {{}}

  async findPage(page: number, size: number) {{
    return this.{coll}Model
      .find({{ archived: false }})
      .sort({{ updatedAt: -1 }})
      .skip(page * size)
      .limit(size)
      .exec();
  }}

  async record{pascal(c)}(id: string) {{
    return this.{coll}Model.updateOne({{ _id: id }}, {{ $inc: {{ {c}: 1 }} }});
  }}

  async add{pascal(f)}(id: string, value: string) {{
    return this.{coll}Model.updateOne({{ _id: id }}, {{ $push: {{ {f}: value }} }});
  }}

  async report() {{
    return this.{coll}Model.aggregate([
      {{ $match: {{ archived: false }} }},
      {{ $lookup: {{ from: '{plural(other)}', localField: '{other}', foreignField: '_id', as: '{other}' }} }},
      {{ $unwind: '${other}' }},
      {{ $lookup: {{ from: '{plural(third)}', localField: '{third}', foreignField: '_id', as: '{third}' }} }},
      {{ $group: {{ _id: '${other}._id', names: {{ $push: '$name' }} }} }},
    ]);
  }}

  async rotate(month: string) {{
    const connection = this.{coll}Model.db;
    return connection.collection(`{colls}_${{month}}`).insertOne({{ at: new Date() }});
  }}
}}
"""

    # ------------------------------------------------------------------ Python

    def py_fn(self):
        a, b = self.ws(2)
        verb = self.rng.choice(VERBS)
        kind = self.rng.randrange(5)
        name = snake(verb, a, b)
        if kind == 0:
            return f'''def {name}(items, key="{b}"):
    """Sum the {b} of each {a}, ignoring missing values."""
    total = 0
    for item in items:
        value = item.get(key)
        if value is None:
            continue
        total += value
    return total
'''
        if kind == 1:
            return f'''@dataclass
class {pascal(a, b)}:
    id: int
    name: str
    {b}_count: int = 0
    tags: list[str] = field(default_factory=list)

    def label(self) -> str:
        return f"{{self.name}} ({{self.{b}_count}})"

    def add_tag(self, tag: str) -> None:
        if tag not in self.tags:
            self.tags.append(tag)
'''
        if kind == 2:
            return f'''async def {name}(session, {a}_id):
    url = f"{{BASE_URL}}/{plural(a)}/{{{a}_id}}/{plural(b)}"
    async with session.get(url, timeout=10) as response:
        if response.status != 200:
            raise RuntimeError(f"cannot {verb} {a} {{{a}_id}}: {{response.status}}")
        payload = await response.json()
    return [row["id"] for row in payload.get("data", [])]
'''
        if kind == 3:
            return f'''def {name}(rows, page=1, per_page=50):
    """Page through rows already in memory."""
    start = (page - 1) * per_page
    chunk = rows[start:start + per_page]
    logger.debug("paging %s: %d rows from %d", "{plural(a)}", len(chunk), start)
    return {{"page": page, "items": chunk, "has_more": start + per_page < len(rows)}}
'''
        return f'''class {pascal(a)}Parser:
    def __init__(self, strict=False):
        self.strict = strict
        self.errors = []

    def parse(self, text):
        out = {{}}
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            key, sep, value = line.partition("=")
            if not sep:
                self.errors.append((lineno, "missing ="))
                continue
            out[key.strip()] = value.strip()
        return out
'''

    def py_ordinary(self):
        head = ['"""Helpers for the %s service."""' % self.w(), "", "import logging",
                "from dataclasses import dataclass, field", ""]
        if self.rng.random() < LOOKALIKE_SHARE:
            # Paging arguments and Django models: driver-vocabulary words in another sense.
            head.append("from django.db import models  # the ORM, not mongo")
            head.append("DEFAULT_SKIP = 0")
        head += ["logger = logging.getLogger(__name__)", 'BASE_URL = "https://api.example.com"', ""]
        body = [self.py_fn() for _ in range(self.rng.randint(4, 14))]
        return "\n".join(head) + "\n\n" + "\n\n".join(body)

    def py_driver(self):
        coll, other, third = self.ws(3)
        colls = plural(coll)
        f = self.field()
        c = self.rng.choice(COUNTERS).lower()
        if self.rng.random() < 0.8:
            return f'''"""{pascal(colls)} API (pymongo / motor)."""

from datetime import datetime, timezone

from bson import ObjectId
from pymongo import DESCENDING, MongoClient

client = MongoClient("mongodb://localhost:27017")
db = client.app
PAGE_SIZE = 20


def list_{colls}(page=1):
    offset = (page - 1) * PAGE_SIZE
    cursor = db.{colls}.find({{"status": "active"}}, sort=[("created_at", DESCENDING)], skip=offset, limit=PAGE_SIZE)
    return list(cursor)


def first_{colls}():
    return list(db.{colls}.find({{}}).skip(0).limit(PAGE_SIZE))


def add_{f}({coll}_id, value):
    db.{colls}.update_one({{"_id": ObjectId({coll}_id)}}, {{"$push": {{"{f}": value}}}})
    db.{colls}.update_one(
        {{"_id": ObjectId({coll}_id)}},
        {{"$push": {{"recent_{f}": {{"$each": [value], "$slice": -10}}}}}},
    )


def count_{c}({coll}_id):
    db.{colls}.update_one({{"_id": ObjectId({coll}_id)}}, {{"$inc": {{"{c}": 1}}}})


def add_total({coll}_id, amount):
    db.{colls}.update_one({{"_id": ObjectId({coll}_id)}}, {{"$inc": {{"total": amount}}}})


def report():
    pipeline = [
        {{"$match": {{"status": "active"}}}},
        {{"$lookup": {{"from": "{plural(other)}", "localField": "{other}_id", "foreignField": "_id", "as": "{other}"}}}},
    ]
    pipeline.append({{"$lookup": {{"from": "{plural(third)}", "localField": "{third}_id", "foreignField": "_id", "as": "{third}"}}}})
    return list(db.{colls}.aggregate(pipeline))


def archive(tenant_id):
    day = datetime.now(timezone.utc).strftime("%Y_%m_%d")
    db[f"{colls}_{{day}}"].insert_one({{"at": datetime.now(timezone.utc)}})
    db.get_collection("{colls}_" + tenant_id).insert_one({{"at": 1}})
    db["{colls}_archive"].insert_one({{"at": 1}})
'''
        Model = pascal(coll)
        return f'''"""{Model} documents (mongoengine)."""

from mongoengine import Document, IntField, ListField, StringField


class {Model}(Document):
    name = StringField(required=True)
    {f} = ListField(StringField())
    {c} = IntField(default=0)
    meta = {{"indexes": ["name"]}}


def add_{f}({coll}_id, value):
    {Model}.objects(id={coll}_id).update_one(push__{f}=value)


def bump_{c}({coll}_id):
    {Model}.objects(id={coll}_id).update_one(inc__{c}=1)


def page_{colls}(page, size):
    return list({Model}.objects(name__ne="").order_by("-id").skip(page * size).limit(size))
'''

    # ------------------------------------------------------------------ Rust

    def rs_fn(self, lookalike):
        a, b = self.ws(2)
        # kind 1 uses `Iterator::skip`: only in look-alike files.
        kind = self.rng.randrange(5) if lookalike else self.rng.choice([0, 2, 3, 4])
        if kind == 0:
            return f"""#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct {pascal(a, b)} {{
    pub id: u64,
    pub name: String,
    pub {b}_count: u32,
    pub tags: Vec<String>,
}}

impl {pascal(a, b)} {{
    pub fn new(id: u64, name: impl Into<String>) -> Self {{
        Self {{ id, name: name.into(), {b}_count: 0, tags: Vec::new() }}
    }}

    pub fn add_tag(&mut self, tag: &str) {{
        if !self.tags.iter().any(|t| t == tag) {{
            self.tags.push(tag.to_string());
        }}
    }}
}}
"""
        if kind == 1:
            return f"""pub fn parse_{a}_{b}(input: &str) -> Result<Vec<(String, String)>, String> {{
    let mut out = Vec::new();
    for (lineno, line) in input.lines().enumerate().skip(1) {{
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {{
            continue;
        }}
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| format!("line {{}}: missing '='", lineno + 1))?;
        out.push((k.trim().to_string(), v.trim().to_string()));
    }}
    Ok(out)
}}
"""
        if kind == 2:
            return f"""impl fmt::Display for {pascal(a)}Error {{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {{
        match self {{
            {pascal(a)}Error::NotFound(id) => write!(f, "{a} {{id}} not found"),
            {pascal(a)}Error::Invalid(msg) => write!(f, "invalid {a}: {{msg}}"),
            {pascal(a)}Error::Io(e) => write!(f, "i/o error: {{e}}"),
        }}
    }}
}}
"""
        if kind == 3:
            return f"""pub fn {a}_{b}_stats(values: &[f64]) -> Option<(f64, f64)> {{
    if values.is_empty() {{
        return None;
    }}
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    Some((mean, var.sqrt()))
}}
"""
        return f"""#[cfg(test)]
mod {a}_{b}_tests {{
    use super::*;

    #[test]
    fn stats_of_empty_is_none() {{
        assert_eq!({a}_{b}_stats(&[]), None);
    }}

    #[test]
    fn stats_of_constant() {{
        let (m, s) = {a}_{b}_stats(&[2.0, 2.0, 2.0]).unwrap();
        assert_eq!(m, 2.0);
        assert_eq!(s, 0.0);
    }}
}}
"""

    def rs_ordinary(self):
        head = "use serde::{Deserialize, Serialize};\nuse std::fmt;\n\n"
        lookalike = self.rng.random() < LOOKALIKE_SHARE
        return head + "\n".join(self.rs_fn(lookalike) for _ in range(self.rng.randint(4, 12)))

    def rs_driver(self):
        coll, other, third = self.ws(3)
        colls = plural(coll)
        f = self.field()
        c = self.rng.choice(COUNTERS).lower()
        Model = pascal(coll)
        return f"""//! {Model} handlers (mongodb crate).

use chrono::Utc;
use futures::TryStreamExt;
use mongodb::bson::{{doc, oid::ObjectId, Document}};
use mongodb::options::FindOptions;
use mongodb::{{Collection, Database}};

pub struct {Model}Store {{
    {colls}: Collection<Document>,
    db: Database,
}}

impl {Model}Store {{
    pub fn new(db: Database) -> Self {{
        Self {{ {colls}: db.collection::<Document>("{colls}"), db }}
    }}

    pub async fn page(&self, page: u64, per_page: i64) -> mongodb::error::Result<Vec<Document>> {{
        let opts = FindOptions::builder()
            .sort(doc! {{ "created_at": -1 }})
            .skip(page * per_page as u64)
            .limit(per_page)
            .build();
        self.{colls}.find(doc! {{ "status": "active" }}, opts).await?.try_collect().await
    }}

    pub async fn add_{f}(&self, id: ObjectId, value: String) -> mongodb::error::Result<()> {{
        self.{colls}
            .update_one(doc! {{ "_id": id }}, doc! {{ "$push": {{ "{f}": value }} }}, None)
            .await?;
        Ok(())
    }}

    pub async fn bump_{c}(&self, id: ObjectId) -> mongodb::error::Result<()> {{
        self.{colls}
            .update_one(doc! {{ "_id": id }}, doc! {{ "$inc": {{ "{c}": 1 }} }}, None)
            .await?;
        Ok(())
    }}

    pub async fn report(&self) -> mongodb::error::Result<Vec<Document>> {{
        let pipeline = vec![
            doc! {{ "$match": {{ "status": "active" }} }},
            doc! {{ "$lookup": {{ "from": "{plural(other)}", "localField": "{other}_id", "foreignField": "_id", "as": "{other}" }} }},
            doc! {{ "$lookup": {{ "from": "{plural(third)}", "localField": "{third}_id", "foreignField": "_id", "as": "{third}" }} }},
        ];
        self.{colls}.aggregate(pipeline, None).await?.try_collect().await
    }}

    pub async fn archive(&self) -> mongodb::error::Result<()> {{
        let day = Utc::now().format("%Y_%m_%d");
        let daily = self.db.collection::<Document>(&format!("{colls}_{{}}", day));
        daily.insert_one(doc! {{ "at": 1 }}, None).await?;
        Ok(())
    }}
}}
"""


LANGS = [  # (extension, share of files)
    ("js", 0.22),
    ("jsx", 0.05),
    ("ts", 0.25),
    ("tsx", 0.10),
    ("py", 0.22),
    ("rs", 0.16),
]


def generate(dest, files, driver_share, seed):
    rng = random.Random(seed)
    g = Gen(rng)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    stats = {"files": 0, "lines": 0, "bytes": 0, "driver_files": 0, "by_ext": {}}
    exts = [e for e, _ in LANGS]
    weights = [w for _, w in LANGS]
    for i in range(files):
        ext = rng.choices(exts, weights)[0]
        driver = rng.random() < driver_share
        pkg = i % 97
        area = rng.choice(["api", "core", "ui", "lib", "services", "jobs", "common", "admin"])
        if ext in ("js", "jsx", "ts", "tsx"):
            root = f"packages/pkg{pkg:02d}/src/{area}"
            if driver:
                text = g.js_driver(ext in ("ts", "tsx"))
            elif ext in ("jsx", "tsx"):
                text = g.react_component(ext == "tsx")
            else:
                text = g.js_ordinary(ext == "ts")
            name = camel(g.w(), g.w(), str(i))
        elif ext == "py":
            root = f"services/svc{pkg:02d}/app/{area}"
            text = g.py_driver() if driver else g.py_ordinary()
            name = snake(g.w(), g.w(), str(i))
        else:
            root = f"crates/crate{pkg:02d}/src/{area}"
            text = g.rs_driver() if driver else g.rs_ordinary()
            name = snake(g.w(), g.w(), str(i))
        d = os.path.join(dest, root)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, f"{name}.{ext}")
        data = text.encode()
        with open(path, "wb") as fh:
            fh.write(data)
        stats["files"] += 1
        stats["lines"] += text.count("\n")
        stats["bytes"] += len(data)
        stats["driver_files"] += int(driver)
        stats["by_ext"][ext] = stats["by_ext"].get(ext, 0) + 1
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dest", default="/tmp/mongolint-bench")
    ap.add_argument("--files", type=int, default=30000)
    ap.add_argument("--driver-share", type=float, default=0.12)
    ap.add_argument("--seed", type=int, default=6)
    a = ap.parse_args()
    stats = generate(a.dest, a.files, a.driver_share, a.seed)
    stats["seed"] = a.seed
    print(json.dumps(stats, sort_keys=True))


if __name__ == "__main__":
    main()
