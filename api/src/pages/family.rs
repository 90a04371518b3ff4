//! The family of rulesets as a picture on the index: one band per family, a timeline by century
//! from left to right, each ruleset a point at the year its rule file dates it from (`dated`) or in
//! a column of its own where the file dates nothing, and a line from each ruleset to the one it
//! extends, drawn on the row just below its parent. An inline SVG: no script, nothing fetched.

use maud::{html, Markup};
use tarot_engine::ir::{Ruleset, FAMILIES};

/// One row of the picture: a ruleset, its band and its depth under the rulesets it extends.
struct Row<'a> {
    rules: &'a Ruleset,
    band: usize,
    depth: usize,
}

const ROW: f64 = 22.0;
const TOP: f64 = 34.0;
const LEFT: f64 = 120.0;
const TIMELINE: f64 = 860.0;
const UNDATED: f64 = 1130.0;
const WIDTH: f64 = 1380.0;
const BAND_GAP: f64 = 10.0;

/// The rows, band by band (in the order of `FAMILIES`, then those whose file names no family), each
/// ruleset followed by those that extend it (the oldest first), so that a variant sits by its parent.
fn rows<'a>(all: &[&'a Ruleset]) -> Vec<Row<'a>> {
    let band = |r: &Ruleset| r.family.as_ref().map_or(FAMILIES.len(), |(f, _)| FAMILIES.iter().position(|x| x == f).unwrap_or(FAMILIES.len()));
    let order = |a: &&Ruleset, b: &&Ruleset| (a.dated.as_ref().map_or(u16::MAX, |d| d.0), &a.id).cmp(&(b.dated.as_ref().map_or(u16::MAX, |d| d.0), &b.id));
    let children = |parent: &str| {
        let mut c: Vec<&Ruleset> = all.iter().copied().filter(|r| r.chain.get(1).is_some_and(|p| p == parent)).collect();
        c.sort_by(order);
        c
    };
    let mut out: Vec<Row> = vec![];
    fn walk<'a>(r: &'a Ruleset, depth: usize, band: usize, children: &dyn Fn(&str) -> Vec<&'a Ruleset>, out: &mut Vec<Row<'a>>) {
        out.push(Row { rules: r, band, depth });
        for c in children(&r.id) {
            walk(c, depth + 1, band, children, out);
        }
    }
    for b in 0..=FAMILIES.len() {
        // The roots of this band: rulesets of its family whose parent is not of it (or which extend none).
        let mut roots: Vec<&Ruleset> =
            all.iter().copied().filter(|r| band(r) == b && r.chain.get(1).and_then(|p| all.iter().find(|x| x.id == *p)).is_none_or(|p| band(p) != b)).collect();
        roots.sort_by(order);
        for r in roots {
            let mut mine = vec![];
            walk(r, 0, b, &|p| children(p).into_iter().filter(|c| band(c) == b).collect(), &mut mine);
            out.extend(mine);
        }
    }
    out
}

/// The picture, or nothing where no ruleset is known.
pub(crate) fn picture(all: &[&Ruleset]) -> Markup {
    let rows = rows(all);
    if rows.is_empty() {
        return html! {};
    }
    let years: Vec<u16> = rows.iter().filter_map(|r| r.rules.dated.as_ref().map(|d| d.0)).collect();
    // The centuries the dated rulesets fall in, counted as `Ruleset::century` counts them.
    let (first, last) = match (years.iter().min(), years.iter().max()) {
        (Some(a), Some(b)) => (a.div_ceil(100), b.div_ceil(100)),
        _ => (20, 20),
    };
    let span = f64::from(last - first + 1) * 100.0;
    let start = f64::from(first - 1) * 100.0;
    let x_of = |r: &Ruleset| r.dated.as_ref().map_or(UNDATED, |(y, _)| LEFT + (f64::from(*y) - start) / span * TIMELINE);
    // Each row's top, with a gap between bands.
    let mut y = TOP;
    let mut tops = vec![];
    let mut bands: Vec<(usize, f64, f64)> = vec![];
    for (i, row) in rows.iter().enumerate() {
        if i == 0 || rows[i - 1].band != row.band {
            if i > 0 {
                y += BAND_GAP;
            }
            bands.push((row.band, y, y));
        }
        tops.push(y);
        y += ROW;
        if let Some(b) = bands.last_mut() {
            b.2 = y;
        }
    }
    let height = y + 8.0;
    let centre = |i: usize| tops[i] + ROW / 2.0;
    let index_of = |id: &str| rows.iter().position(|r| r.rules.id == id);
    html! {
        figure class="family" {
            svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="family-title" width=(WIDTH) height=(height) viewBox={ "0 0 " (WIDTH) " " (height) } font-family="Georgia,serif" font-size="12" {
                title id="family-title" { "The rulesets by family and by the year their rule files date them from; a line joins a variant to the ruleset it extends" }
                @for (n, (band, top, bottom)) in bands.iter().enumerate() {
                    rect class="band" x="0" y=(top) width=(WIDTH) height=(bottom - top) fill=(if n % 2 == 0 { "#f4f1ea" } else { "#eaeef4" }) {}
                    text class="band-name" x="6" y=(top + 15.0) font-weight="bold" {
                        (FAMILIES.get(*band).map_or("Family not given".to_string(), |f| f.to_string()))
                    }
                }
                @for c in first..=last {
                    @let x = LEFT + f64::from(c - first) * 100.0 / span * TIMELINE;
                    line x1=(x) y1="20" x2=(x) y2=(height) stroke="#bbb" stroke-dasharray="3 3" {}
                    text class="century" x=(x + 4.0) y="16" fill="#555" { (super::index::ordinal(c)) " century" }
                }
                line x1=(UNDATED - 20.0) y1="20" x2=(UNDATED - 20.0) y2=(height) stroke="#999" {}
                text class="century" x=(UNDATED - 14.0) y="16" fill="#555" { "not dated by its sources" }
                @for (i, row) in rows.iter().enumerate() {
                    @if let Some(p) = row.rules.chain.get(1).and_then(|p| index_of(p)) {
                        path class="extends" data-from=(row.rules.chain[1]) data-to=(row.rules.id)
                            d={ "M" (x_of(rows[p].rules)) " " (centre(p)) " V" (centre(i)) " H" (x_of(row.rules)) }
                            fill="none" stroke="#7a6a4f" stroke-width="1.5" {}
                    }
                }
                @for (i, row) in rows.iter().enumerate() {
                    @let r = row.rules;
                    @let x = x_of(r);
                    a href={ "/pages/rulesets/" (r.id) } {
                        g class="ruleset" data-id=(r.id) data-row=(i) data-depth=(row.depth) data-year=[r.dated.as_ref().map(|d| d.0)]
                            data-family=[r.family.as_ref().map(|f| f.0.as_str())] data-parent=[r.chain.get(1)] {
                            title { (r.title) @if let Some((y, _)) = &r.dated { " — dated " (y) } }
                            circle cx=(x) cy=(centre(i)) r="5" fill=(if r.dated.is_some() { "#1d3470" } else { "#fff" }) stroke="#1d3470" stroke-width="1.5" {}
                            // Left of the point where the line from its parent comes from the right.
                            @let left = row.rules.chain.get(1).and_then(|p| index_of(p)).is_some_and(|p| x_of(rows[p].rules) > x);
                            text x=(if left { x - 9.0 } else { x + 9.0 }) y=(centre(i) + 4.0) text-anchor=(if left { "end" } else { "start" }) fill="#1d3470" {
                                (r.id) @if let Some((y, _)) = &r.dated { tspan fill="#777" { " " (y) } }
                            }
                        }
                    }
                }
            }
            figcaption class="src" { "Each ruleset at the year its rule file dates it from (an open circle where the file dates nothing); a line joins a variant to the ruleset it extends." }
        }
    }
}
