//! The rulesets as the API lists, shows and compares them, and the deal statistics over HTTP.

use super::{problem, server};
use crate::common::{self, fixture};
use serde_json::{json, Value};

#[test]
fn health_and_rulesets() {
    let s = server();
    assert_eq!(s.get("/health").json()["status"], "ok");
    let list = s.get("/rulesets").json();
    let ids: Vec<&str> = list.as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"fft-4p") && ids.contains(&"marolles-1637") && ids.contains(&"basic"), "{ids:?}");
    let marolles = list.as_array().unwrap().iter().find(|r| r["id"] == "marolles-1637").unwrap();
    assert_eq!((&marolles["family"], &marolles["dated"], &marolles["century"]), (&json!("French"), &json!(1637), &json!(17)));
    let queen = list.as_array().unwrap().iter().find(|r| r["id"] == "queen-of-tarot").unwrap();
    assert_eq!((&queen["family"], &queen["dated"], &queen["century"]), (&json!("French"), &json!(null), &json!(null)), "seed 004 dates nothing");
    // A child is dated by its own source, or not at all: never by its parent's.
    let dated = |id: &str| list.as_array().unwrap().iter().find(|r| r["id"] == id).unwrap()["dated"].clone();
    assert_eq!((dated("fft-3p"), dated("fft-2p"), dated("fft-4p-pousse"), dated("marolles-78")), (json!(2012), json!(null), json!(null), json!(null)));
    let one = s.get("/rulesets/marolles-1637").json();
    assert_eq!(one["rules"]["id"], "marolles-1637");
    assert!(one["rules"]["options"].as_array().unwrap().iter().any(|o| o["name"] == "ultimo_failure"));
    assert!(one["files"][0]["text"].as_str().unwrap().contains("ruleset marolles-1637"));
    problem(&s.get("/rulesets/nope"), 404);
    let c = s.get("/rulesets/compare?ids=fft-4p,marolles-1637,basic").json();
    assert_eq!(c["rulesets"], json!(["fft-4p", "marolles-1637", "basic"]));
    let obligations = c["rows"].as_array().unwrap().iter().find(|r| r["aspect"] == "trick obligations").unwrap();
    assert_eq!(obligations["differs"], true);
    assert_eq!(obligations["cells"].as_array().unwrap().len(), 3);
    let p = problem(&s.get("/rulesets/compare?ids=fft-4p"), 422);
    assert!(p["detail"].as_str().unwrap().contains("`ids` names only fft-4p; give at least two rulesets"), "{p}");
    let p = problem(&s.get("/rulesets/compare?ids="), 422);
    assert!(p["detail"].as_str().unwrap().contains("`ids` names none; give at least two rulesets"), "{p}");
    let game: Value = serde_json::from_str(&fixture("fft-4p/tarotclub/tarotmag_17.json")).unwrap();
    let c = s.post("/compare", &json!({"game": game, "rulesets": ["fft-4p", "queen-of-tarot", "marolles-1637"]}).to_string()).json();
    assert_eq!(c["divergence"]["legal_under"], json!(["fft-4p"]));
    assert_eq!(c["divergence"]["illegal_under"], json!(["queen-of-tarot"]));
    assert!(c["replays"][2]["cannot_replay"].as_str().unwrap().contains("3 players"));
    problem(&s.post("/compare", &json!({"game": game, "rulesets": ["fft-4p"]}).to_string()), 422);
    problem(&s.get("/rulesets/compare?ids=fft-4p,nope"), 422);
    problem(&s.get("/no/such/route"), 404);
}

/// Deal statistics over HTTP: the same seed gives the same figures (and the CLI's), another seed
/// other figures, and bad queries are problems.
#[test]
fn deal_statistics_over_http() {
    let s = server();
    let a = s.get("/stats?rulesets=fft-4p,marolles-1637&deals=3000&seed=5").json();
    assert_eq!(a.as_array().unwrap().len(), 2);
    assert_eq!(a[0]["ruleset"], "fft-4p");
    assert_eq!(a[0]["deals"], 3000);
    assert!(a[0]["note"].as_str().unwrap().contains("no card is played"));
    assert_eq!(a[0]["classes"]["oudlers"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).sum::<u64>(), 3000 * 4);
    assert!(a[1]["declarations"].as_object().unwrap().contains_key("triomphes"), "{}", a[1]);
    assert_eq!(s.get("/stats?rulesets=fft-4p,marolles-1637&deals=3000&seed=5").json(), a);
    // A list as generated clients send it, the parameter repeated, is the same list.
    assert_eq!(s.get("/stats?rulesets=fft-4p&rulesets=marolles-1637&deals=3000&seed=5").json(), a);
    assert_eq!(s.get("/rulesets/compare?ids=fft-4p&ids=basic").json(), s.get("/rulesets/compare?ids=fft-4p,basic").json());
    assert_ne!(s.get("/stats?rulesets=fft-4p,marolles-1637&deals=3000&seed=6").json(), a);
    let cli = common::tarot_archive().args(["stats", "--rulesets", "fft-4p,marolles-1637", "--deals", "3000", "--seed", "5", "--json"]).output().unwrap();
    assert_eq!(serde_json::from_slice::<Value>(&cli.stdout).unwrap(), a);
    let five = s.get("/stats?rulesets=fft-5p&players=5&deals=100").json();
    assert_eq!(five[0]["players"], 5);
    let p = problem(&s.get("/stats?rulesets=fft-4p&deals=0"), 422);
    assert!(p["detail"].as_str().unwrap().contains("`deals`: the number of deals is between 1 and 1,000,000, not 0"), "{p}");
    problem(&s.get("/stats?rulesets=fft-4p&deals=1000001"), 422);
    problem(&s.get("/stats?rulesets=nope"), 422);
    problem(&s.get("/stats?rulesets=basic-partners&players=5&deals=10"), 422);
    // The document types the numbers as whole numbers: an empty one is refused here (schemathesis
    // found `players=` accepted), while the statistics page's form, which sends empty boxes, takes it.
    for q in ["players=", "deals=", "seed="] {
        let p = problem(&s.get(&format!("/stats?rulesets=fft-4p&{q}")), 400);
        assert!(p["detail"].as_str().unwrap().contains("is empty: give a whole number, or leave it out"), "{p}");
    }
    assert_eq!(s.get("/pages/stats?rulesets=fft-4p&deals=100&seed=&players=").status, 200);
    let p = problem(&s.get("/stats?rulesets=fft-4p&deals=many"), 400);
    assert!(p["detail"].as_str().unwrap().contains("`deals` is a whole number, not `many`"), "{p}");
    let p = problem(&s.get("/stats?rulesets=fft-4p&seed=-1"), 400);
    assert!(p["detail"].as_str().unwrap().contains("`seed`"), "{p}");
    problem(&s.get("/stats"), 400);
}

/// The statistics take a ruleset's options (`options=NAME=VALUE,...`), as a game record chooses them:
/// each applies to every ruleset asked that has it, and the figures are the CLI's with `--option`; an
/// option no ruleset asked has, a value not among its choices, or a pair without `=` is a 422 (not a
/// 400: the string is of the documented type, so schemathesis expects the request to be read).
#[test]
fn deal_statistics_take_options_over_http() {
    let s = server();
    let q = "/stats?rulesets=fft-4p,marolles-1637&deals=3000&seed=5";
    let default = s.get(q).json();
    let chosen = s.get(&format!("{q}&options=petit_sec=seed-004")).json();
    assert_eq!(chosen[0]["options"], serde_json::json!({"petit_sec": "seed-004"}));
    assert!(chosen[0]["annulments"]["petit_sec"].as_u64() > default[0]["annulments"]["petit_sec"].as_u64(), "{chosen}");
    assert_eq!(chosen[1], default[1], "marolles-1637 has no such option: dealt with its defaults");
    assert!(default[0].get("options").is_none(), "{default}");
    let cli = common::tarot_archive()
        .args(["stats", "--rulesets", "fft-4p,marolles-1637", "--deals", "3000", "--seed", "5", "--option", "petit_sec=seed-004", "--json"])
        .output()
        .unwrap();
    assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
    assert_eq!(serde_json::from_slice::<Value>(&cli.stdout).unwrap(), chosen);
    // Droggn's Gstieß as the top trump: the other pack is dealt, and said.
    let top = s.get("/stats?rulesets=droggn&deals=100&options=gstiess=top-trump").json();
    assert!(top[0]["pack"].as_str().unwrap().contains("options chosen (gstiess = \"top-trump\"): the Gstieß is a trump"), "{top}");
    // Repeated, as generated clients send a list, is the same list.
    assert_eq!(
        s.get("/stats?rulesets=droggn&deals=100&options=gstiess=top-trump&options=target=38").json(),
        s.get("/stats?rulesets=droggn&deals=100&options=gstiess=top-trump,target=38").json()
    );
    for (options, says) in [
        ("nope=1", "no ruleset asked has an option `nope`; their options are: "),
        ("petit_sec=maybe", "option `petit_sec` of fft-4p cannot be `maybe`; choose one of "),
        ("petit_sec", "`options` takes NAME=VALUE, comma-separated, not `petit_sec`"),
    ] {
        let p = problem(&s.get(&format!("{q}&options={options}")), 422);
        assert!(p["detail"].as_str().unwrap().contains(says), "{options}: {p}");
    }
    assert_eq!(s.get("/pages/stats?rulesets=fft-4p&deals=100&options=petit_sec%3Dseed-004").status, 200);
    // A page answers a page, not problem+json (tested in pages_browser).
    assert_eq!(s.get("/pages/stats?rulesets=fft-4p&deals=100&options=nope%3D1").status, 422);
    let out = common::tarot_archive().args(["stats", "--rulesets", "fft-4p", "--deals", "10", "--seed", "1", "--option", "nope=1"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("no ruleset named has an option `nope`"), "{}", String::from_utf8_lossy(&out.stderr));
}
