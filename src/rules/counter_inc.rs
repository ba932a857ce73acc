use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::{Finding, Severity};

pub struct CounterInc;

static META: RuleMeta = RuleMeta {
    id: "counter-inc",
    name: "CounterInc",
    summary: "Per-event counter: $inc by a small literal on one hot document",
    default_severity: Severity::Info,
    precision: "medium",
    tags: &["mongodb", "schema-design", "performance"],
    doc: include_str!("../../rules/counter-inc.md"),
};

impl Rule for CounterInc {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, _ctx: &RuleContext, _out: &mut Vec<Finding>) {}
}
