//! Rulesets side by side: one row per aspect of the game (pack, deal, bidding, obligations, the
//! Excuse, counting, scoring...), one column per ruleset, each cell the ruleset's clauses for that
//! aspect with their sources, and the rows that differ marked. Built from `describe`, which is derived
//! from the compiled rules, so a new rule file takes its place in a comparison with no code change.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::describe::{describe, Line};
use crate::ir::Ruleset;

#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub rulesets: Vec<String>,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub aspect: &'static str,
    /// The rulesets do not all say the same here.
    pub differs: bool,
    /// One cell per ruleset, in the order asked for.
    pub cells: Vec<Vec<Line>>,
}

/// Compares rulesets, each with its default options.
pub fn compare(rulesets: &[&Ruleset]) -> Comparison {
    let described: Vec<_> = rulesets.iter().map(|r| describe(r, &BTreeMap::new())).collect();
    // Aspects in the order the descriptions give them, the first ruleset's first.
    let mut aspects: Vec<&'static str> = vec![];
    for d in &described {
        for l in &d.rules {
            if !aspects.contains(&l.aspect) {
                aspects.push(l.aspect);
            }
        }
    }
    let rows = aspects
        .into_iter()
        .map(|aspect| {
            let cells: Vec<Vec<Line>> = described.iter().map(|d| d.rules.iter().filter(|l| l.aspect == aspect).cloned().collect()).collect();
            let texts: Vec<Vec<&str>> = cells.iter().map(|c| c.iter().map(|l| l.text.as_str()).collect()).collect();
            let differs = texts.windows(2).any(|w| w[0] != w[1]);
            Row { aspect, differs, cells }
        })
        .collect();
    Comparison { rulesets: rulesets.iter().map(|r| r.id.clone()).collect(), rows }
}

impl Comparison {
    /// The table as text: each aspect, marked `≠` where the rulesets differ, then each ruleset's
    /// clauses with their sources.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.rulesets.join(" | "));
        for row in &self.rows {
            let _ = writeln!(out, "\n{} {}", if row.differs { "≠" } else { "=" }, row.aspect);
            // Identical cells are shown once, for all.
            let columns: Vec<(&str, &Vec<Line>)> = if row.differs {
                self.rulesets.iter().map(String::as_str).zip(&row.cells).collect()
            } else {
                vec![("all", &row.cells[0])]
            };
            for (id, cell) in columns {
                if cell.is_empty() {
                    let _ = writeln!(out, "  {id}: (nothing)");
                }
                for (i, line) in cell.iter().enumerate() {
                    let head = if i == 0 { format!("{id}:") } else { String::new() };
                    let source = line.source.as_deref().map(|s| format!("  [{s}]")).unwrap_or_default();
                    let _ = writeln!(out, "  {head:<16} {}{source}", line.text);
                }
            }
        }
        out
    }
}
