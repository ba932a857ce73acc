//! GitHub Actions workflow commands, one per finding: the runner turns each into an annotation on
//! the pull request's diff (`::warning file=src/a.js,line=3,col=5,endLine=3,endColumn=9,title=…::…`).
//!
//! Escaping follows the runner (actions/toolkit `command.ts`): in the message `%`, `\r` and `\n`
//! become `%25`, `%0D`, `%0A`; property values also escape `:` and `,` (`%3A`, `%2C`).
//! Severities map to `error`, `warning` and `notice`.

use super::locate::Locator;
use crate::analysis::Analysis;
use crate::diagnostic::Severity;
use std::io::{self, Write};

fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

pub(crate) fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

pub(crate) fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub(super) fn render(analysis: &Analysis, out: &mut dyn Write) -> io::Result<()> {
    let locator = Locator::new(analysis);
    for f in &analysis.findings {
        let mut props = vec![format!("file={}", escape_property(locator.path(f.file)))];
        if let Some(r) = locator.range(f.file, f.span) {
            props.push(format!("line={}", r.start.line));
            props.push(format!("col={}", r.start.column));
            props.push(format!("endLine={}", r.end.line));
            props.push(format!("endColumn={}", r.end.column));
        }
        props.push(format!(
            "title={}",
            escape_property(&format!("mongolint ({})", f.rule))
        ));
        let mut message = f.message.clone();
        if !f.help.is_empty() {
            message.push_str("\nhelp: ");
            message.push_str(&f.help);
        }
        writeln!(
            out,
            "::{} {}::{}",
            command(f.severity),
            props.join(","),
            escape_data(&message)
        )?;
    }
    for e in &analysis.errors {
        writeln!(
            out,
            "::error file={},title={}::{}",
            escape_property(&e.display_path),
            escape_property("mongolint (could not analyse)"),
            escape_data(&format!(
                "could not analyse {}: {}",
                e.display_path, e.message
            ))
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_the_actions_toolkit() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
