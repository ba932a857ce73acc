//! Mongoose index declarations: `schema.index({..}, {..})`, field options in `new Schema({..})`
//! (`index`, `unique`, `sparse`, `expires`, `text`), and NestJS `SchemaFactory.createForClass(C).index(..)`.
//! Each becomes an `OpKind::CreateIndex` operation on the collection of the model the schema is
//! compiled into (`model("Post", PostSchema)` in the same file), or on an unknown collection named
//! after the schema variable when the model is made elsewhere.

use super::{is_repository_module, span, Extractor, Thing, MAX_DEPTH};
use crate::ir::*;
use crate::lang::naming::mongoose_collection_name;
use crate::lang::HashMap;
use crate::lang::KindOf;
use tree_sitter::Node;

/// Where a schema's indexes go.
#[derive(Clone)]
enum SchemaOwner {
    Collection(CollectionRef),
    /// A schema variable; its model is looked up once the whole file is seen.
    Variable(String, Span),
}

impl<'t> Extractor<'t> {
    /// The calls of the function around `call` when it only hands its parameters on to the
    /// schema's `index(fields, options)`: each call's arguments for them, in the file's order.
    /// `None` when the keys are no parameter of a function declaration of the file.
    #[allow(clippy::type_complexity)]
    fn index_forwarder_calls(
        &self,
        root: Node<'t>,
        call: Node<'t>,
        args: &[Node<'t>],
    ) -> Option<Vec<(Node<'t>, Node<'t>, Option<Node<'t>>)>> {
        let keys = self.unwrap_expr(*args.first()?);
        if keys.k() != "identifier" {
            return None;
        }
        // (Not one another module may call: `export function index(..)`.)
        let func = self.enclosing_function(call);
        if func.k() != "function_declaration"
            || self
                .parents
                .of(func)
                .is_some_and(|p| p.k() == "export_statement")
        {
            return None;
        }
        let name = self.text(self.field(func, "name")?);
        let params = self.parameter_names(func);
        let position = |n: Node<'t>| {
            let n = self.unwrap_expr(n);
            (n.k() == "identifier")
                .then(|| params.iter().position(|p| *p == self.text(n)))
                .flatten()
        };
        let keys_at = position(keys)?;
        let options_at = args.get(1).and_then(|o| position(*o));
        let mut sites = Vec::new();
        self.parents.walk(root, |n, kind, enter| {
            if !enter || kind != "call_expression" {
                return;
            }
            let named = self
                .field(n, "function")
                .is_some_and(|f| f.k() == "identifier" && self.text(f) == name);
            if !named {
                return;
            }
            let given = self.args(n);
            if let Some(fields) = given.get(keys_at) {
                sites.push((n, *fields, options_at.and_then(|i| given.get(i).copied())));
            }
        });
        Some(sites)
    }

    /// Whether the file's `Schema` is Mongoose's handed on by the application: imported from a
    /// module of the repository (`import { Schema } from '../../common/mongo'`, which does
    /// `export * from 'mongoose'`), or taken from a Mongoose instance that such a module exports
    /// (`const { Schema } = connectionMongo`, FastGPT's models).
    fn schema_handed_on(&self) -> bool {
        self.bindings.get("Schema").into_iter().flatten().any(|b| {
            b.import.as_ref().is_some_and(|i| {
                (i.export == "Schema" || i.export.ends_with(".Schema"))
                    && is_repository_module(&i.module)
            })
        })
    }

    /// Finds every Mongoose index declaration of the file and appends it to the IR.
    pub(super) fn schema_indexes(&mut self, root: Node<'t>) {
        if !self.uses_mongo && !self.schema_handed_on() {
            return;
        }
        // schema variable → the model it is compiled into.
        let mut models: HashMap<String, CollectionRef> = HashMap::default();
        // schema variable → the class it is made from (`SchemaFactory.createForClass(C)`).
        let mut class_schemas: HashMap<String, CollectionRef> = HashMap::default();
        let mut pending: Vec<(SchemaOwner, Operation)> = Vec::new();
        let mut calls = Vec::new();
        let mut schema_news = Vec::new();
        let mut props = Vec::new();
        let flags = super::kinds::FLAGS.table();
        self.parents
            .clone()
            .walk_flagged(root, flags, |n, f, enter| {
                if !enter {
                    return;
                }
                if f & super::kinds::CALL != 0 {
                    // `mongoose.Schema({..})`: Mongoose makes a schema without `new` too.
                    if self.is_schema_new(n) {
                        schema_news.push(n);
                    } else {
                        calls.push(n);
                    }
                } else if f & super::kinds::NEW != 0 {
                    if self.is_schema_new(n) {
                        schema_news.push(n);
                    }
                } else if f & super::kinds::FIELD != 0 {
                    props.push(n);
                }
            });
        // NestJS `@Prop({ index: true })` fields, per class.
        let mut class_props: HashMap<String, Vec<Operation>> = HashMap::default();
        for field in props {
            let Some((class, op)) = self.prop_index(field) else {
                continue;
            };
            class_props.entry(class).or_default().push(op);
        }
        let mut class_owner: HashMap<String, CollectionRef> = HashMap::default();
        for call in calls {
            let Some(f) = self.field(call, "function") else {
                continue;
            };
            let mut method = self.callee_name(f);
            // (The name is tested first: most calls are neither, and `args` allocates.)
            if !matches!(method, "model" | "createForClass" | "index" | "add")
                && !method.contains("Model")
            {
                continue;
            }
            let args = self.args(call);
            if self.is_model_helper_call(f, &args) {
                method = "model";
            }
            match method {
                "model" if args.len() >= 2 => {
                    let Thing::Collection(r) = self.classify_call(call, 0) else {
                        continue;
                    };
                    // A compilation after another in a chain of fallbacks never runs.
                    if let Some(Thing::Collection(first)) = self
                        .parents
                        .of(call)
                        .filter(|p| p.k() == "binary_expression")
                        .and_then(|p| self.first_compiled(p, 0))
                    {
                        if first.span != r.span {
                            continue;
                        }
                    }
                    let schema = self.unwrap_expr(args[1]);
                    if let Some(imported) = self.imported_schema(schema) {
                        self.ir.schema_models.push(SchemaModel {
                            schema: imported,
                            collection: r.clone(),
                            fields_only: false,
                        });
                    }
                    if schema.k() == "identifier" {
                        models.insert(self.text(schema).to_string(), r);
                    }
                }
                "createForClass" => {
                    let Some(r) = self.class_schema_collection(call, &args) else {
                        continue;
                    };
                    if let Some(c) = args.first().filter(|a| a.k() == "identifier") {
                        class_owner
                            .entry(self.text(*c).to_string())
                            .or_insert_with(|| r.clone());
                    }
                    if let Some(var) = declared_name(self, call) {
                        class_schemas.insert(var, r);
                    }
                }
                // Typegoose's `@index({ a: 1 }, { unique: true })` on a model class.
                "index" if !args.is_empty() && f.k() == "identifier" => {
                    let Some(class) = self
                        .parents
                        .of(call)
                        .filter(|d| d.k() == "decorator")
                        .and_then(|d| self.decorated_class(d))
                    else {
                        continue;
                    };
                    let Some(name) = self.field(class, "name") else {
                        continue;
                    };
                    let r = self.class_collection(name, Some(class));
                    let mut op = Operation::new(OpKind::CreateIndex, "index", span(call), span(f));
                    op.filter = Some(self.lower(args[0], 0));
                    op.options = args.get(1).map(|a| self.lower(*a, 0));
                    op.receiver = self.text(name).to_string();
                    pending.push((SchemaOwner::Collection(r), op));
                }
                // `schema.add({ group: { type: String, index: true } })`: more fields, with their
                // index options, as the schema's definition has (lad's `User.add(object)`). Fields
                // that cannot be read (a computed key, an object filled in at run time) may
                // declare indexes too: an index on a collection named at run time stands for them.
                "add" if !args.is_empty() && f.k() == "member_expression" => {
                    let Some(obj) = self.field(f, "object") else {
                        continue;
                    };
                    let Some(owner) = self.schema_owner(obj) else {
                        continue;
                    };
                    let prop = self.field(f, "property").unwrap_or(f);
                    let def = self.lower(args[0], 0);
                    // `schema.add(fields, "address.")`: under a path.
                    let prefix = args
                        .get(1)
                        .and_then(|a| self.string_value(*a))
                        .unwrap_or_default();
                    let mut ops = Vec::new();
                    field_indexes(&def, &prefix, &mut ops, &mut Vec::new(), 0);
                    let unread = !def.is_document()
                        || def
                            .fields()
                            .iter()
                            .any(|f| f.key == "..." || f.key.starts_with('['));
                    if unread {
                        let mut op =
                            Operation::new(OpKind::CreateIndex, "add", span(call), span(prop));
                        op.filter = Some(Value::unknown(span(args[0]), self.text(args[0]), false));
                        ops.push(op);
                    }
                    for mut op in ops {
                        op.receiver = crate::lang::receiver_text(self.text(obj));
                        pending.push((owner.clone(), op));
                    }
                }
                "index" if !args.is_empty() && f.k() == "member_expression" => {
                    let Some(obj) = self.field(f, "object") else {
                        continue;
                    };
                    let Some(owner) = self.schema_owner(obj) else {
                        continue;
                    };
                    let prop = self.field(f, "property").unwrap_or(f);
                    // A function of the file that hands its parameters on (`function index(fields,
                    // options) { subscriberSchema.index(fields, options) }`, novu's subscribers):
                    // its calls are the declarations.
                    if let Some(sites) = self.index_forwarder_calls(root, call, &args) {
                        for (site, fields, options) in sites {
                            let mut op = Operation::new(
                                OpKind::CreateIndex,
                                "index",
                                span(site),
                                span(prop),
                            );
                            op.filter = Some(self.lower(fields, 0));
                            op.options = options.map(|a| self.lower(a, 0));
                            op.receiver = crate::lang::receiver_text(self.text(obj));
                            pending.push((owner.clone(), op));
                        }
                        continue;
                    }
                    let mut op =
                        Operation::new(OpKind::CreateIndex, "index", span(call), span(prop));
                    op.filter = Some(self.lower(args[0], 0));
                    op.options = args.get(1).map(|a| self.lower(*a, 0));
                    op.receiver = crate::lang::receiver_text(self.text(obj));
                    pending.push((owner, op));
                }
                _ => {}
            }
        }
        // The field-level declarations of each schema variable, and the schemas that copy the
        // fields of another (`new Schema({ ...BaseCheckSchema.obj, .. })`).
        let mut field_ops: HashMap<String, Vec<Operation>> = HashMap::default();
        let mut copies: Vec<(SchemaOwner, Node<'t>)> = Vec::new();
        // (A schema's path typed by another schema of the file, and that schema's name.)
        let mut subs: Vec<(SchemaOwner, String, String)> = Vec::new();
        for n in schema_news {
            let Some(def) = self
                .field(n, "arguments")
                .and_then(|a| self.named_children(a).into_iter().next())
            else {
                continue;
            };
            let owner = match self.schema_new_owner(n, 0) {
                Some(o) => o,
                None => continue,
            };
            let mut defs = vec![def];
            self.spread_definitions(def, &mut defs, 0);
            let mut ops = Vec::new();
            for def in &defs {
                let mut named = Vec::new();
                field_indexes(&self.lower(*def, 0), "", &mut ops, &mut named, 0);
                subs.extend(
                    named
                        .into_iter()
                        .map(|(path, var)| (owner.clone(), path, var)),
                );
                copies.extend(self.copied_schemas(*def).map(|x| (owner.clone(), x)));
            }
            // A field of an object spread into another is read with that one (the lowering
            // splices a constant object with no spread of its own) and again as a definition of
            // its own: one declaration.
            let mut seen: Vec<(Span, String)> = Vec::new();
            ops.retain(|op: &Operation| {
                if defs.len() == 1 {
                    return true;
                }
                let key = (op.span, format!("{:?}{:?}", op.filter, op.options));
                let new = !seen.contains(&key);
                if new {
                    seen.push(key);
                }
                new
            });
            if let SchemaOwner::Variable(var, _) = &owner {
                field_ops
                    .entry(var.clone())
                    .or_default()
                    .extend(ops.iter().cloned());
            }
            for op in ops {
                pending.push((owner.clone(), op));
            }
        }
        // A schema that copies another's fields (`.obj`) has their index options too: the
        // other's field-level declarations, of this file or of the module it is imported from
        // (checkmate's check schemas, each `{ ...BaseCheckSchema.obj, .. }`).
        let mut imported_copies = Vec::new();
        // The schemas of this file whose fields others copy: with no model and no export, they
        // are bases, whose declarations belong to the copies alone (and so are the schemas of
        // others' paths, `nested`).
        let mut bases: Vec<&'t str> = Vec::new();
        // A path typed by another schema of the file (`metadata: { type: metadataSchema }`,
        // `items: [itemSchema]`: a single nested or an array of subdocuments) has that schema's
        // field-level indexes under its path, as Mongoose's `schema.indexes()` collects them
        // (checkmate's checks, `metadata.monitorId`).
        let mut nested: Vec<String> = Vec::new();
        for (owner, path, var) in subs {
            let Some(ops) = field_ops.get(&var) else {
                continue;
            };
            nested.push(var.clone());
            for op in ops {
                let mut op = op.clone();
                if let Some(Value {
                    kind: ValueKind::Document(fields),
                    ..
                }) = &mut op.filter
                {
                    for f in fields.iter_mut() {
                        f.key = format!("{path}.{}", f.key);
                    }
                }
                pending.push((owner.clone(), op));
            }
        }
        for (owner, x) in copies {
            match field_ops.get(self.text(x)) {
                Some(ops) => {
                    bases.push(self.text(x));
                    pending.extend(ops.iter().map(|op| (owner.clone(), op.clone())));
                }
                None => {
                    if let Some(import) = self.imported_schema(x) {
                        imported_copies.push((owner, import));
                    }
                }
            }
        }
        let mut classes: Vec<(String, Vec<Operation>)> = class_props.into_iter().collect();
        classes.sort_by(|a, b| a.0.cmp(&b.0));
        for (class, ops) in classes {
            let at = ops.first().map(|o| o.span).unwrap_or_default();
            let owner = class_owner
                .get(&class)
                .cloned()
                .or_else(|| {
                    // A Typegoose class's `@modelOptions({ schemaOptions: { collection } })`.
                    let decl = self.top_level_class(&class)?;
                    let name = self.class_option_collection(decl)?;
                    Some(CollectionRef {
                        name: CollectionName::Literal { name },
                        span: at,
                        via: CollectionVia::MongooseModel,
                        import: None,
                    })
                })
                .unwrap_or_else(|| CollectionRef {
                    name: CollectionName::Literal {
                        name: mongoose_collection_name(class.trim_end_matches("Stub")),
                    },
                    span: at,
                    via: CollectionVia::MongooseModel,
                    import: None,
                });
            for op in ops {
                pending.push((SchemaOwner::Collection(owner.clone()), op));
            }
        }
        for (owner, schema) in imported_copies {
            let collection = match owner {
                SchemaOwner::Collection(r) => Some(r),
                SchemaOwner::Variable(var, _) => {
                    models.get(&var).or(class_schemas.get(&var)).cloned()
                }
            };
            if let Some(collection) = collection {
                self.ir.schema_models.push(SchemaModel {
                    schema,
                    collection,
                    fields_only: true,
                });
            }
        }
        // Schemas with index declarations and no model here, for the modules that compile one.
        let mut unowned: Vec<String> = Vec::new();
        for (owner, mut op) in pending {
            let collection = match owner {
                SchemaOwner::Collection(r) => r,
                SchemaOwner::Variable(var, sp) => {
                    match models.get(&var).or(class_schemas.get(&var)) {
                        Some(r) => r.clone(),
                        None if (bases.contains(&var.as_str()) || nested.contains(&var))
                            && !self
                                .export_nodes
                                .iter()
                                .any(|(_, n)| n.k() == "identifier" && self.text(*n) == var) =>
                        {
                            continue;
                        }
                        None => CollectionRef {
                            name: CollectionName::Unknown { text: var },
                            span: sp,
                            via: CollectionVia::MongooseModel,
                            import: None,
                        },
                    }
                }
            };
            if let CollectionName::Unknown { text } = &collection.name {
                if !unowned.contains(text) {
                    unowned.push(text.clone());
                }
            }
            op.evidence = Evidence::Resolved;
            op.collection = Some(collection);
            op.context.periodic = self.file_periodic;
            self.ir.operations.push(op);
        }
        for (name, node) in &self.export_nodes {
            if node.k() != "identifier" {
                continue;
            }
            let text = self.text(*node);
            if unowned.iter().any(|u| u == text) {
                self.ir.exports.push(Export {
                    name: name.clone(),
                    target: ExportTarget::Schema {
                        variable: text.to_string(),
                    },
                });
                continue;
            }
            // `export const loadPostClass = (models) => { postSchema.loadClass(Post); return
            // postSchema; }`, `postSchema` imported: the call's result is that schema.
            if let Some(import) = self.returned_schema(*node) {
                self.ir.exports.push(Export {
                    name: format!("{name}()"),
                    target: ExportTarget::Reexport { import },
                });
            }
        }
    }

    /// The class a decorator decorates: `@index(..) class C {}`, or `@index(..) export class C
    /// {}` (the decorators of an export belong to its statement).
    pub(super) fn decorated_class(&self, decorator: Node<'t>) -> Option<Node<'t>> {
        let p = self.parents.of(decorator)?;
        if super::is_class(p.k()) {
            return Some(p);
        }
        if p.k() == "export_statement" {
            return self
                .field(p, "declaration")
                .filter(|d| super::is_class(d.k()));
        }
        None
    }

    /// The collection a Typegoose class names in its decorators (`@modelOptions({
    /// schemaOptions: { collection: 'messages' } })`).
    pub(super) fn class_option_collection(&self, class: Node<'t>) -> Option<String> {
        let mut decorators = self.named_children(class);
        if let Some(p) = self
            .parents
            .of(class)
            .filter(|p| p.k() == "export_statement")
        {
            decorators.extend(self.named_children(p));
        }
        decorators.into_iter().find_map(|d| {
            if d.k() != "decorator" || !self.text(d).starts_with("@modelOptions(") {
                return None;
            }
            let call = self
                .named_children(d)
                .into_iter()
                .find(|c| c.k() == "call_expression")?;
            let opts = self.lower(*self.args(call).first()?, 0);
            let c = opts.get("schemaOptions")?.value.get("collection")?;
            match &c.value.kind {
                ValueKind::String(name) => Some(name.clone()),
                _ => None,
            }
        })
    }

    /// The collection of a model class named by `name` (declared by `decl` in this file, if it
    /// is): the one its decorators name, else Mongoose's plural of its name (Typegoose's
    /// `getModelForClass(Message)` makes model `Message`, collection `messages`).
    pub(super) fn class_collection(&self, name: Node<'t>, decl: Option<Node<'t>>) -> CollectionRef {
        let collection = decl
            .and_then(|d| self.class_option_collection(d))
            .unwrap_or_else(|| mongoose_collection_name(self.text(name)));
        CollectionRef {
            name: CollectionName::Literal { name: collection },
            span: span(name),
            via: CollectionVia::MongooseModel,
            import: None,
        }
    }

    /// The schemas whose fields a schema definition copies: `X` of each `...X.obj` in it.
    fn copied_schemas(&self, def: Node<'t>) -> impl Iterator<Item = Node<'t>> + '_ {
        let members = if def.k() == "object" {
            self.named_children(def)
        } else {
            Vec::new()
        };
        members.into_iter().filter_map(move |p| {
            if p.k() != "spread_element" {
                return None;
            }
            let arg = self.unwrap_expr(self.named_children(p).into_iter().next()?);
            if arg.k() != "member_expression"
                || self.field(arg, "property").map(|q| self.text(q)) != Some("obj")
            {
                return None;
            }
            self.field(arg, "object").filter(|o| o.k() == "identifier")
        })
    }

    /// The objects a schema definition spreads its fields from, bound to names of the file
    /// (erxes' `new Schema({ ...conversationSchemaOptions, .. })`, `conversationSchemaOptions`
    /// an object of fields declared above): their fields' index options are the schema's.
    fn spread_definitions(&self, def: Node<'t>, out: &mut Vec<Node<'t>>, depth: usize) {
        if depth > 4 || def.k() != "object" {
            return;
        }
        for p in self.named_children(def) {
            if p.k() != "spread_element" {
                continue;
            }
            let Some(arg) = self.named_children(p).into_iter().next() else {
                continue;
            };
            let arg = self.unwrap_expr(arg);
            if arg.k() != "identifier" {
                continue;
            }
            let Some(value) = self
                .lookup(self.text(arg), arg.start_byte() as u32)
                .and_then(|b| b.value)
                .map(|v| self.unwrap_expr(v))
            else {
                continue;
            };
            if value.k() == "object" && !out.iter().any(|o| o.id() == value.id()) {
                out.push(value);
                self.spread_definitions(value, out, depth + 1);
            }
        }
    }

    /// A schema argument of `model(name, schema)` that another module of the repository holds:
    /// an imported schema, or the result of an imported function (`loadPostClass(models)`).
    fn imported_schema(&self, schema: Node<'t>) -> Option<ImportRef> {
        let (name, call) = match schema.k() {
            "identifier" => (schema, false),
            "call_expression" => (
                self.field(schema, "function")
                    .filter(|f| f.k() == "identifier")?,
                true,
            ),
            _ => return None,
        };
        let imp = self.repository_import(self.text(name), name.start_byte() as u32)?;
        Some(ImportRef {
            module: imp.module.clone(),
            export: if call {
                format!("{}()", imp.export)
            } else {
                imp.export.clone()
            },
        })
    }

    /// The imported schema that the exported function named by `name` (a declaration's name)
    /// returns last: `(..) => { ..; return postSchema; }` or `return postSchema.loadClass(Post);`,
    /// `postSchema` imported from another module.
    fn returned_schema(&self, name: Node<'t>) -> Option<ImportRef> {
        let decl = self
            .parents
            .of(name)
            .filter(|d| d.k() == "variable_declarator")?;
        let func = self
            .field(decl, "value")
            .map(|v| self.unwrap_expr(v))
            .filter(|v| matches!(v.k(), "arrow_function" | "function_expression" | "function"))?;
        // The body's last statement (not a walk of the body: these functions hold whole classes).
        let body = self.field(func, "body")?;
        let last = self
            .named_children(body)
            .into_iter()
            .rev()
            .find(|s| s.k() != "comment")
            .filter(|s| s.k() == "return_statement")?;
        let mut returned = self.unwrap_expr(self.named_children(last).into_iter().next()?);
        // `return postSchema.loadClass(Post);`: `loadClass` returns the schema.
        if returned.k() == "call_expression" {
            returned = self
                .field(returned, "function")
                .filter(|f| f.k() == "member_expression")
                .filter(|f| {
                    self.field(*f, "property")
                        .is_some_and(|p| self.text(p) == "loadClass")
                })
                .and_then(|f| self.field(f, "object"))?;
        }
        if returned.k() != "identifier" {
            return None;
        }
        self.repository_import(self.text(returned), returned.start_byte() as u32)
            .cloned()
    }

    /// `@Prop({ index: true }) name: string;` in a `@Schema()` class: (class name, declaration).
    fn prop_index(&self, field: Node<'t>) -> Option<(String, Operation)> {
        let name = self
            .field(field, "name")
            .or_else(|| self.field(field, "property"))?;
        let decorator = self.named_children(field).into_iter().find(|d| {
            d.k() == "decorator" && {
                let t = self.text(*d);
                // NestJS's `@Prop(..)`, Typegoose's `@prop(..)`.
                t.starts_with("@Prop(") || t.starts_with("@prop(")
            }
        })?;
        let call = self
            .named_children(decorator)
            .into_iter()
            .find(|c| c.k() == "call_expression")?;
        let opts = self.lower(*self.args(call).first()?, 0);
        let key = Field {
            key: self.text(name).to_string(),
            key_span: span(name),
            value: opts.clone(),
        };
        let op = field_index(&key, &key.key, &opts)?;
        let mut class = self.parents.of(field);
        while let Some(c) = class {
            if super::is_class(c.k()) {
                break;
            }
            class = self.parents.of(c);
        }
        let class_name = self.text(self.field(class?, "name")?).to_string();
        Some((class_name, op))
    }

    /// An application's helper that compiles a model, called with a model name and a schema of
    /// this file: growi's `getOrCreateModel('Page', pageSchema)` (`getModelSafely(name) ??
    /// mongoose.model(name, schema)`), a `createModel('User', userSchema)`, FastGPT's
    /// `getMongoModel(ChatItemCollectionName, ChatItemSchema)`.
    pub(super) fn is_model_helper_call(&self, f: Node<'t>, args: &[Node<'t>]) -> bool {
        let name = self.callee_name(f);
        if name == "model" || !name.contains("Model") || args.len() < 2 {
            return false;
        }
        // The name written out, or a name for it (`getMongoModel(ChatItemCollectionName,
        // ChatItemSchema)`, FastGPT's models).
        if self.string_value(args[0]).is_none() && self.unwrap_expr(args[0]).k() != "identifier" {
            return false;
        }
        let schema = self.unwrap_expr(args[1]);
        schema.k() == "identifier"
            && self
                .lookup(self.text(schema), schema.start_byte() as u32)
                .and_then(|b| b.value)
                .is_some_and(|v| self.is_schema_value(v, 0))
    }

    /// `new Schema(..)`, `new mongoose.Schema(..)`.
    /// `new Schema(..)`, `new mongoose.Schema(..)`, or the same called without `new`
    /// (`mongoose.Schema({..})`, which Mongoose accepts: node-express-boilerplate's models).
    pub(super) fn is_schema_new(&self, n: Node<'t>) -> bool {
        let callee = match n.k() {
            "new_expression" => "constructor",
            "call_expression" => "function",
            _ => return false,
        };
        let ctor = self.field(n, callee).map_or("", |c| self.text(c));
        ctor == "Schema" || ctor.ends_with(".Schema")
    }

    /// Whose indexes a schema expression declares: a schema variable, `Model.schema`,
    /// `SchemaFactory.createForClass(C)`.
    fn schema_owner(&self, obj: Node<'t>) -> Option<SchemaOwner> {
        let obj = self.unwrap_expr(obj);
        match obj.k() {
            "identifier" => {
                let name = self.text(obj);
                let b = self.lookup(name, obj.start_byte() as u32)?;
                self.is_schema_value(b.value?, 0)
                    .then(|| SchemaOwner::Variable(name.to_string(), span(obj)))
            }
            "call_expression" if self.callee_method(obj) == "createForClass" => {
                let args = self.args(obj);
                self.class_schema_collection(obj, &args)
                    .map(SchemaOwner::Collection)
            }
            // `new Schema({..}).index(a).index(b)`: the schema the chain starts from.
            "new_expression" | "call_expression" if self.is_schema_new(obj) => {
                self.schema_new_owner(obj, 0)
            }
            "call_expression" => {
                // Down the chain (bounded, as `schema_chain_top` is going up) to its first call's
                // object: a schema variable, a `new Schema(..)`, a `createForClass(C)`.
                let mut o = self.schema_chain_object(obj)?;
                for _ in 0..32 {
                    match self.schema_chain_object(self.unwrap_expr(o)) {
                        Some(next) => o = next,
                        None => return self.schema_owner(o),
                    }
                }
                None
            }
            "member_expression" => {
                let prop = self.field(obj, "property")?;
                if self.text(prop) != "schema" {
                    return None;
                }
                let model = self.field(obj, "object")?;
                if let Thing::Collection(r) = self.classify(model, 0) {
                    return Some(SchemaOwner::Collection(r));
                }
                // NestJS: `BlockModel.schema` where `BlockModel = attach({ name: Block.name, schema })`.
                let m = self.unwrap_expr(model);
                if m.k() != "identifier" {
                    return None;
                }
                let v = self.lookup(self.text(m), m.start_byte() as u32)?.value?;
                let def = model_definition(self, v, 0)?;
                self.definition_collection(def).map(SchemaOwner::Collection)
            }
            _ => None,
        }
    }

    /// A schema: `new Schema(..)`, `SchemaFactory.createForClass(C)`, or a call of a helper whose
    /// first argument is one (`schemaWrapper(new Schema({..}))`).
    fn is_schema_value(&self, v: Node<'t>, depth: usize) -> bool {
        let v = self.unwrap_expr(v);
        match v.k() {
            "new_expression" => self.is_schema_new(v),
            "call_expression" if self.is_schema_new(v) => true,
            "call_expression" if self.callee_method(v) == "createForClass" => true,
            // `new Schema({..}).index({..})`: a chain of schema methods; else a helper's call.
            "call_expression" => match self.schema_chain_object(v) {
                Some(o) => depth < 8 && self.is_schema_value(o, depth + 1),
                None => {
                    depth < 4
                        && self
                            .args(v)
                            .first()
                            .is_some_and(|a| self.is_schema_value(*a, depth + 1))
                }
            },
            _ => false,
        }
    }

    /// The owner of a `new Schema(..)`: the variable it is bound to, or the model it is passed to.
    /// Handed first to a helper that is no model (`schemaWrapper(new Schema({..}))`, erxes's
    /// 90 schema modules: it adds fields and returns the schema), it is what the helper returns.
    fn schema_new_owner(&self, n: Node<'t>, depth: usize) -> Option<SchemaOwner> {
        let n = self.schema_chain_top(n);
        let parent = self.parents.of(n)?;
        match parent.k() {
            "variable_declarator" | "assignment_expression" => {
                let name = self
                    .field(parent, "name")
                    .or_else(|| self.field(parent, "left"))?;
                (name.k() == "identifier")
                    .then(|| SchemaOwner::Variable(self.text(name).to_string(), span(name)))
            }
            "arguments" => {
                let call = self.parents.of(parent)?;
                match self.classify_call(call, 0) {
                    Thing::Collection(r) => Some(SchemaOwner::Collection(r)),
                    _ if depth < 4 && self.args(call).first() == Some(&n) => {
                        self.schema_new_owner(call, depth + 1)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The schema a call of one of its chainable methods is made on: `x` of `x.index({..})`,
    /// `x.plugin(p)`, `x.set(k, v)` (each returns the schema it is called on).
    fn schema_chain_object(&self, call: Node<'t>) -> Option<Node<'t>> {
        let f = self.field(call, "function")?;
        if f.k() != "member_expression" {
            return None;
        }
        let prop = self.field(f, "property")?;
        SCHEMA_CHAIN_METHODS
            .contains(&self.text(prop))
            .then(|| self.field(f, "object"))
            .flatten()
    }

    /// The outermost call of the chain of schema methods that starts at `n`:
    /// `new Schema({..}).index({..}).plugin(p)`, where `n` is the `new Schema(..)`.
    fn schema_chain_top(&self, n: Node<'t>) -> Node<'t> {
        let mut cur = n;
        for _ in 0..32 {
            let Some(member) = self.parents.of(cur) else {
                break;
            };
            let Some(call) = self.parents.of(member) else {
                break;
            };
            if member.k() != "member_expression"
                || call.k() != "call_expression"
                || self.schema_chain_object(call) != Some(cur)
            {
                break;
            }
            cur = call;
        }
        cur
    }

    fn callee_method(&self, call: Node<'t>) -> &'t str {
        self.field(call, "function")
            .filter(|f| f.k() == "member_expression")
            .and_then(|f| self.field(f, "property"))
            .map_or("", |p| self.text(p))
    }

    /// `SchemaFactory.createForClass(C)`: the model is named in the enclosing
    /// `{ name: X.name, schema: .. }` definition when there is one, else after the class.
    fn class_schema_collection(&self, call: Node<'t>, args: &[Node<'t>]) -> Option<CollectionRef> {
        let mut cur = call;
        for _ in 0..6 {
            let Some(p) = self.parents.of(cur) else { break };
            if p.k() == "object" {
                if let Some(r) = self.definition_collection(p) {
                    return Some(r);
                }
                break;
            }
            cur = p;
        }
        let class = args.first().filter(|a| a.k() == "identifier")?;
        Some(CollectionRef {
            name: CollectionName::Literal {
                name: mongoose_collection_name(self.text(*class)),
            },
            span: span(*class),
            via: CollectionVia::MongooseModel,
            import: None,
        })
    }

    /// A NestJS model definition object `{ name: Block.name, schema: .. }` → the collection.
    fn definition_collection(&self, obj: Node<'t>) -> Option<CollectionRef> {
        for pair in self.named_children(obj) {
            if pair.k() != "pair" {
                continue;
            }
            let key = self.field(pair, "key").map_or("", |k| self.text(k));
            if key != "name" {
                continue;
            }
            let value = self.field(pair, "value")?;
            let model = match self.string_value(value) {
                Some(s) => s,
                None => {
                    let t = self.text(value);
                    t.strip_suffix(".name")
                        .filter(|c| c.chars().all(|ch| ch.is_alphanumeric() || ch == '_'))?
                        .to_string()
                }
            };
            return Some(CollectionRef {
                name: CollectionName::Literal {
                    name: mongoose_collection_name(&model),
                },
                span: span(value),
                via: CollectionVia::MongooseModel,
                import: None,
            });
        }
        None
    }
}

/// Mongoose's schema methods that return the schema, so that calls chain:
/// `new Schema({..}).index({..}).plugin(p)` (not `virtual`, which returns the virtual).
const SCHEMA_CHAIN_METHODS: &[&str] = &[
    "index",
    "plugin",
    "set",
    "pre",
    "post",
    "method",
    "static",
    "loadClass",
    "add",
];

/// The variable a call's result is bound to: `const S = SchemaFactory.createForClass(C)`.
fn declared_name<'t>(x: &Extractor<'t>, call: Node<'t>) -> Option<String> {
    let p = x.parents.of(call)?;
    (p.k() == "variable_declarator")
        .then(|| x.field(p, "name"))
        .flatten()
        .filter(|n| n.k() == "identifier")
        .map(|n| x.text(n).to_string())
}

/// The `{ name, schema }` object a model-definition expression is built from:
/// the object itself, or the first object argument of a wrapper call (`attach({..})`).
fn model_definition<'t>(x: &Extractor<'t>, v: Node<'t>, depth: usize) -> Option<Node<'t>> {
    if depth > 4 {
        return None;
    }
    let v = x.unwrap_expr(v);
    match v.k() {
        "object" => Some(v),
        "call_expression" => x
            .args(v)
            .into_iter()
            .find_map(|a| model_definition(x, a, depth + 1)),
        _ => None,
    }
}

/// Field-level index options in a schema definition, with their dotted paths; and in `nested`,
/// the paths typed by a schema named by a variable (`metadata: { type: metaSchema }`, `items:
/// [itemSchema]`), with that name.
fn field_indexes(
    def: &Value,
    prefix: &str,
    out: &mut Vec<Operation>,
    nested: &mut Vec<(String, String)>,
    depth: usize,
) {
    if depth > MAX_DEPTH / 4 {
        return;
    }
    for f in def.fields() {
        if f.key == "..." || f.key.starts_with('$') {
            continue;
        }
        let path = format!("{prefix}{}", f.key);
        if let Some(name) = schema_name(&f.value) {
            nested.push((path, name.to_string()));
            continue;
        }
        let target = match &f.value.kind {
            ValueKind::Array(items) => match items.first() {
                Some(first) => first,
                None => continue,
            },
            _ => &f.value,
        };
        if !target.is_document() {
            continue;
        }
        if is_field_options(target) {
            if let Some(op) = field_index(f, &path, target) {
                out.push(op);
            }
            if let Some(t) = target.get("type") {
                if let Some(name) = schema_name(&t.value) {
                    nested.push((path, name.to_string()));
                    continue;
                }
                let inner = match &t.value.kind {
                    ValueKind::Array(items) => items.first(),
                    _ => Some(&t.value),
                };
                if let Some(inner) = inner.filter(|v| v.is_document()) {
                    field_indexes(inner, &format!("{path}."), out, nested, depth + 1);
                }
            }
        } else {
            field_indexes(target, &format!("{path}."), out, nested, depth + 1);
        }
    }
}

/// The schema variable a path's type names (`metaSchema` in `{ type: metaSchema }`, `metaSchema`,
/// `[metaSchema]`): a plain name that is no type of its own (`String`, `Date`,
/// `Schema.Types.ObjectId`).
fn schema_name(v: &Value) -> Option<&str> {
    let v = match &v.kind {
        ValueKind::Array(items) if items.len() == 1 => &items[0],
        _ => v,
    };
    match &v.kind {
        ValueKind::Unknown(u)
            if u.is_name
                && !u.text.contains('.')
                && !matches!(
                    u.text.as_str(),
                    "String"
                        | "Number"
                        | "Boolean"
                        | "Date"
                        | "Buffer"
                        | "Object"
                        | "Array"
                        | "Map"
                        | "Mixed"
                        | "ObjectId"
                        | "Decimal128"
                        | "BigInt"
                        | "UUID"
                ) =>
        {
            Some(&u.text)
        }
        _ => None,
    }
}

/// `{ type: String, unique: true }` rather than a nested path `{ street: String, city: String }`.
fn is_field_options(v: &Value) -> bool {
    v.get("type").is_some_and(|t| {
        // `{ type: { type: String } }` is a nested path called `type`.
        t.value.get("type").is_none()
    }) || [
        "index", "unique", "expires", "sparse", "required", "default", "ref",
    ]
    .iter()
    .any(|k| {
        v.get(k)
            .is_some_and(|f| !f.value.is_document() || *k == "index")
    })
}

fn truthy(v: &Value) -> bool {
    match &v.kind {
        ValueKind::Bool(b) => *b,
        // `unique: [true, "email taken"]`
        ValueKind::Array(items) => items.first().is_some_and(truthy),
        ValueKind::Number(n) => *n != 0.0,
        // `unique: "Account already exists"`: Mongoose's `SchemaType.unique(value)` keeps
        // `!!value` (ohmyform's users), so a non-empty string is an index.
        ValueKind::String(s) => !s.is_empty(),
        _ => false,
    }
}

/// One field's `index` / `unique` / `expires` / `text` options as one index declaration.
fn field_index(field: &Field, path: &str, opts: &Value) -> Option<Operation> {
    let mut direction: Option<Value> = None;
    let mut options: Vec<Field> = Vec::new();
    let mut named_by: Option<&Field> = None;
    let one = |sp: Span| Value {
        span: sp,
        kind: ValueKind::Number(1.0),
    };
    if let Some(ix) = opts.get("index") {
        match &ix.value.kind {
            ValueKind::Bool(true) => direction = Some(one(ix.value.span)),
            ValueKind::Number(_) | ValueKind::String(_) => direction = Some(ix.value.clone()),
            ValueKind::Document(fs) => {
                direction = Some(one(ix.value.span));
                options.extend(fs.iter().cloned());
            }
            _ => {}
        }
        if direction.is_some() {
            named_by = Some(ix);
        }
    }
    if let Some(t) = opts.get("text").filter(|t| truthy(&t.value)) {
        direction = Some(Value {
            span: t.value.span,
            kind: ValueKind::String("text".into()),
        });
        named_by = Some(t);
    }
    if let Some(u) = opts.get("unique").filter(|u| truthy(&u.value)) {
        direction.get_or_insert_with(|| one(u.value.span));
        options.push(Field {
            key: "unique".into(),
            key_span: u.key_span,
            value: Value {
                span: u.value.span,
                kind: ValueKind::Bool(true),
            },
        });
        named_by = Some(u);
    }
    if let Some(e) = opts.get("expires") {
        direction.get_or_insert_with(|| one(e.value.span));
        options.push(Field {
            key: "expireAfterSeconds".into(),
            key_span: e.key_span,
            value: e.value.clone(),
        });
        named_by.get_or_insert(e);
    }
    let direction = direction?;
    if let Some(s) = opts.get("sparse").filter(|s| truthy(&s.value)) {
        options.push(s.clone());
    }
    let by = named_by?;
    let mut op = Operation::new(
        OpKind::CreateIndex,
        &by.key,
        Span::new(field.key_span.start as usize, opts.span.end as usize),
        by.key_span,
    );
    op.filter = Some(Value {
        span: field.key_span,
        kind: ValueKind::Document(vec![Field {
            key: path.to_string(),
            key_span: field.key_span,
            value: direction,
        }]),
    });
    if !options.is_empty() {
        op.options = Some(Value {
            span: opts.span,
            kind: ValueKind::Document(options),
        });
    }
    Some(op)
}

#[cfg(test)]
mod tests {
    use crate::ir::{OpKind, ValueKind};

    fn indexes(src: &str) -> Vec<(String, String, String)> {
        let ctx = crate::lang::FileContext {
            display_path: "models/x.ts",
        };
        let ir = crate::lang::extract(crate::ir::Language::TypeScript, src, &ctx).unwrap();
        ir.operations
            .iter()
            .filter(|o| o.kind == OpKind::CreateIndex)
            .map(|o| {
                let keys = o
                    .filter
                    .as_ref()
                    .unwrap()
                    .fields()
                    .iter()
                    .map(|f| match &f.value.kind {
                        ValueKind::Number(n) => format!("{}:{n}", f.key),
                        ValueKind::String(s) => format!("{}:{s}", f.key),
                        _ => format!("{}:?", f.key),
                    })
                    .collect::<Vec<_>>()
                    .join(",");
                let opts = o
                    .options
                    .as_ref()
                    .map(|v| {
                        v.fields()
                            .iter()
                            .map(|f| f.key.clone())
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .unwrap_or_default();
                (o.collection_display(), keys, opts)
            })
            .collect()
    }

    /// A path typed by another schema of the file (a single nested, `metadata: { type:
    /// metaSchema }`, or an array of subdocuments, `items: [metaSchema]`) has that schema's
    /// field-level indexes under its path, on the parent's collection, as Mongoose's
    /// `schema.indexes()` collects them; the nested schema, with no model of its own, declares
    /// nothing elsewhere.
    #[test]
    fn a_nested_schema_s_field_indexes_are_under_its_path() {
        let got = indexes(
            r#"import { Schema, model } from "mongoose";
const metaSchema = new Schema({ monitorId: { type: Schema.Types.ObjectId, index: true }, note: String }, { _id: false });
const CheckSchema = new Schema({ metadata: { type: metaSchema, required: true }, items: [metaSchema], at: Date });
CheckSchema.index({ "metadata.monitorId": 1, createdAt: -1 });
export const Check = model("Check", CheckSchema);
"#,
        );
        let mut keys: Vec<(String, String)> = got.into_iter().map(|(c, k, _)| (c, k)).collect();
        keys.sort();
        assert_eq!(
            keys,
            vec![
                ("checks".to_string(), "items.monitorId:1".to_string()),
                ("checks".to_string(), "metadata.monitorId:1".to_string()),
                (
                    "checks".to_string(),
                    "metadata.monitorId:1,createdAt:-1".to_string()
                ),
            ]
        );
    }

    /// `unique` given a message (`unique: "Account already exists"`, ohmyform's users): Mongoose
    /// keeps `!!value`, so it is a unique index, as `unique: [true, msg]` is. An empty string is
    /// none.
    #[test]
    fn a_unique_given_a_message_is_a_unique_index() {
        let got = indexes(
            r#"import mongoose from "mongoose";
const UserSchema = new mongoose.Schema({
  email: { type: String, unique: "Account already exists with this email" },
  username: { type: String, unique: [true, "taken"] },
  nick: { type: String, unique: "" },
});
mongoose.model("User", UserSchema);
"#,
        );
        assert_eq!(
            got,
            vec![
                ("users".into(), "email:1".into(), "unique".into()),
                ("users".into(), "username:1".into(), "unique".into()),
            ]
        );
    }

    /// Typegoose: `@index(..)` on a model class (exported or not) and `@prop({ index: true })`
    /// on its fields declare indexes on the class's collection, the one `@modelOptions({
    /// schemaOptions: { collection } })` names or Mongoose's plural of the class's name; the
    /// model `getModelForClass(C)` makes is on that collection.
    #[test]
    fn typegoose_decorators_declare_the_model_classes_indexes() {
        let src = r#"import { getModelForClass, prop, index, modelOptions } from "@typegoose/typegoose";
@index({ converseId: 1 })
@index({ converseId: 1, _id: -1 }, { unique: true })
@modelOptions({ schemaOptions: { collection: "chat_messages" } })
export class Message {
  @prop({ index: true })
  groupId?: string;
  @prop()
  converseId!: string;
}
@index({ name: 1 })
class Tag {
  @prop({ unique: true })
  slug!: string;
}
export const MessageModel = getModelForClass(Message);
export const TagModel = getModelForClass(Tag);
"#;
        let got = indexes(src);
        assert_eq!(
            got,
            vec![
                ("chat_messages".into(), "converseId:1".into(), "".into()),
                (
                    "chat_messages".into(),
                    "converseId:1,_id:-1".into(),
                    "unique".into()
                ),
                ("chat_messages".into(), "groupId:1".into(), "".into()),
                ("tags".into(), "name:1".into(), "".into()),
                ("tags".into(), "slug:1".into(), "unique".into()),
            ]
        );
        let ctx = crate::lang::FileContext {
            display_path: "models/message.ts",
        };
        let src = format!("{src}export const list = (q) => MessageModel.find(q).skip(q.n);\n");
        let ir = crate::lang::extract(crate::ir::Language::TypeScript, &src, &ctx).unwrap();
        let find = ir
            .operations
            .iter()
            .find(|o| o.kind == OpKind::Find)
            .unwrap();
        assert_eq!(find.collection_display(), "chat_messages");
    }

    /// A schema definition's fields spread from an object of the file (erxes' `new Schema({
    /// ...conversationSchemaOptions, .. })`, through a spread within that object too) declare
    /// the indexes of their options; a spread of something not bound to an object declares none.
    #[test]
    fn fields_spread_into_a_schema_declare_their_indexes() {
        let got = indexes(
            r#"import { Schema, model } from "mongoose";
const base = { createdAt: { type: Date, index: true } };
export const conversationFields = { ...base, customerId: { type: String, index: true } };
const s = new Schema({ ...conversationFields, ...other(), status: { type: String, unique: true } });
model("conversations", s);
"#,
        );
        assert_eq!(
            got,
            vec![
                ("conversations".into(), "createdAt:1".into(), "".into()),
                ("conversations".into(), "customerId:1".into(), "".into()),
                ("conversations".into(), "status:1".into(), "unique".into()),
            ]
        );
    }

    /// A schema built and indexed in one expression (HyperDX's models): `.index(..)` chained on
    /// `new Schema({..})`, through other schema methods, passed to `mongoose.model(..)` or bound
    /// to a variable that is indexed again. A `.virtual(..)` returns no schema, and an `index`
    /// method of something else declares nothing.
    #[test]
    fn indexes_chained_on_a_new_schema_land_on_its_model() {
        let got = indexes(
            r#"import mongoose, { Schema } from "mongoose";
export default mongoose.model(
  "Dashboard",
  new Schema({ name: { type: String, unique: true }, team: Schema.Types.ObjectId })
    .index({ name: 1, team: 1 }, { unique: true })
    .plugin(timestamps)
    .index({ team: 1, _id: 1 }),
);
const ConnectionSchema = new Schema({ team: String }).index({ team: 1 });
ConnectionSchema.index({ host: 1 });
export const Connection = mongoose.model("Connection", ConnectionSchema);
new Schema({ a: String }).virtual("full").index({ a: 1 });
const rows = table.index({ b: 1 });
"#,
        );
        assert_eq!(
            got,
            vec![
                ("dashboards".into(), "name:1,team:1".into(), "unique".into()),
                ("dashboards".into(), "team:1,_id:1".into(), "".into()),
                ("dashboards".into(), "name:1".into(), "unique".into()),
                ("connections".into(), "team:1".into(), "".into()),
                ("connections".into(), "host:1".into(), "".into()),
            ]
        );
    }

    #[test]
    fn schema_index_and_field_options_land_on_the_model_collection() {
        let got = indexes(
            r#"import mongoose, { Schema } from "mongoose";
const UserSchema = new Schema({
  email: { type: String, unique: true, index: true },
  handle: { type: String, index: true, sparse: true },
  profile: { city: { type: String, index: -1 } },
  tags: [{ type: String, index: true }],
  session: { type: Date, expires: "1d" },
  bio: String,
});
UserSchema.index({ handle: 1, createdAt: -1 });
export const User = mongoose.model("User", UserSchema);
"#,
        );
        assert_eq!(
            got,
            vec![
                ("users".into(), "email:1".into(), "unique".into()),
                ("users".into(), "handle:1".into(), "sparse".into()),
                ("users".into(), "profile.city:-1".into(), "".into()),
                ("users".into(), "tags:1".into(), "".into()),
                (
                    "users".into(),
                    "session:1".into(),
                    "expireAfterSeconds".into()
                ),
                ("users".into(), "handle:1,createdAt:-1".into(), "".into()),
            ]
        );
    }

    #[test]
    fn nestjs_create_for_class_uses_the_definition_name() {
        let got = indexes(
            r#"import { SchemaFactory } from "@nestjs/mongoose";
export const PermissionModel = attach({
  name: Permission.name,
  schema: SchemaFactory.createForClass(PermissionStub).index({ model: 1, role: 1 }, { unique: true }),
});
PermissionModel.schema.index({ role: 1 });
const S = SchemaFactory.createForClass(Label);
S.index({ title: "text" });
"#,
        );
        assert_eq!(
            got,
            vec![
                (
                    "permissions".into(),
                    "model:1,role:1".into(),
                    "unique".into()
                ),
                ("permissions".into(), "role:1".into(), "".into()),
                ("labels".into(), "title:text".into(), "".into()),
            ]
        );
    }

    #[test]
    fn nestjs_prop_options_are_indexes_of_the_class_schema() {
        let got = indexes(
            r#"import { Prop, Schema, SchemaFactory } from "@nestjs/mongoose";
@Schema({ timestamps: true })
export class BlockStub extends BaseSchema {
  @Prop({ type: String, required: true, index: true })
  name: string;

  @Prop({ type: String, unique: true })
  slug: string;

  @Prop({ type: String })
  note: string;
}
export const BlockModel = attach({ name: Block.name, schema: SchemaFactory.createForClass(BlockStub) });
"#,
        );
        assert_eq!(
            got,
            vec![
                ("blocks".into(), "name:1".into(), "".into()),
                ("blocks".into(), "slug:1".into(), "unique".into()),
            ]
        );
    }

    /// erxes: `schemaWrapper(new Schema({..}))` adds fields to the schema and returns it; the
    /// variable is the schema, in this file or in the module that compiles its model.
    #[test]
    fn a_schema_handed_to_a_helper_is_the_helper_result() {
        let got = indexes(
            r#"import { Schema, model } from "mongoose";
import { schemaWrapper } from "./utils";
export const companySchema = schemaWrapper(
  new Schema({ code: { type: String, unique: true }, name: String }),
);
companySchema.index({ _id: 1, createdAt: 1 });
const tagSchema = schemaWrapper(new Schema({ name: { type: String, index: true } }));
export const Tags = model("tags", tagSchema);
export const Brands = model("brands", schemaWrapper(new Schema({ code: { type: String, index: true } })));
"#,
        );
        assert_eq!(
            got,
            vec![
                ("<unknown>".into(), "code:1".into(), "unique".into()),
                ("<unknown>".into(), "_id:1,createdAt:1".into(), "".into()),
                ("tags".into(), "name:1".into(), "".into()),
                ("brands".into(), "code:1".into(), "".into()),
            ]
        );
    }

    #[test]
    fn elasticsearch_index_calls_are_not_schemas() {
        let got = indexes(
            r#"import mongoose from "mongoose";
const es = new Client({});
es.index({ index: "posts", id: 1, body: {} });
"#,
        );
        assert!(got.is_empty(), "{got:?}");
    }
}
