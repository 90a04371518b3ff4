//! The docs page in a real headless Chromium: the Swagger UI is served by the archive itself (the
//! `vendored` assets), so it renders the operations with no network. `scripts/test.sh` installs
//! Debian's chromium; this test fails, saying so, when it is missing.

mod common;

use std::process::Command;

use common::{spawn_fresh, temp_dir};

fn chromium() -> String {
    for c in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"] {
        if std::path::Path::new(c).exists() {
            return c.to_string();
        }
    }
    panic!("no Chromium found: install Debian's `chromium` package (bash scripts/test.sh does)");
}

fn headless(url: &str, what: &[&str]) -> std::process::Output {
    let profile = temp_dir("chromium-profile");
    Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        // Let the page's scripts run to completion before the DOM is read.
        .arg("--virtual-time-budget=20000")
        .args(what)
        .arg(url)
        .output()
        .expect("chromium runs")
}

#[test]
fn the_docs_page_renders_the_operations_offline() {
    let server = spawn_fresh("docs", &[]);
    let url = server.url("/docs/");
    let out = headless(&url, &["--dump-dom"]);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("opblock"), "no operations rendered:\n{}\n{}", &dom[..dom.len().min(2000)], String::from_utf8_lossy(&out.stderr));
    for path in ["/validate", "/games/{id}/events", "/sessions/{id}", "/rulesets/{id}"] {
        assert!(dom.contains(path), "{path} is not listed");
    }
    assert!(!dom.contains("validator.swagger.io"), "the online validator badge is on");
    // A picture for people: target/docs-page.png.
    let png = common::root().join("target/docs-page.png");
    std::fs::create_dir_all(png.parent().unwrap()).unwrap();
    let _ = headless(&url, &[&format!("--screenshot={}", png.display()), "--window-size=1280,1600"]);
}

/// The pages for people, opened in headless Chromium: the index lists the rulesets; the rules side
/// by side highlight the rows that differ; a stored game under two rulesets marks where they diverge.
/// Screenshots go to target/page-*.png.
#[test]
fn the_comparison_pages_render_in_a_browser() {
    let server = spawn_fresh("pages", &[]);
    let game = server.post("/games", &common::fixture("fft-4p/tarotclub/tarotmag_17.json")).json();
    let id = game["id"].as_str().unwrap();
    let pages = [
        ("index", "/".to_string(), vec!["marolles-1637", "queen-of-tarot", "/docs/", "/pages/stats"]),
        ("rules", "/pages/rulesets/compare?ids=fft-4p,marolles-1637,basic".to_string(), vec!["class=\"differs\"", "trick obligations", "pack total 74"]),
        (
            "stats",
            "/pages/stats?rulesets=fft-4p,fft-3p,marolles-1637&deals=5000".to_string(),
            vec!["hands that could declare: poignee", "hands with 3 oudlers", "no card is played"],
        ),
        ("game", format!("/pages/games/{id}/compare?ids=fft-4p,queen-of-tarot"), vec!["class=\"diverge\"", "legal under fft-4p", "South leads"]),
    ];
    for (name, path, wanted) in pages {
        let url = server.url(&path);
        let out = headless(&url, &["--dump-dom"]);
        let dom = String::from_utf8_lossy(&out.stdout);
        for w in wanted {
            assert!(dom.contains(w), "{path}: `{w}` not found in\n{}", &dom[..dom.len().min(1500)]);
        }
        let png = common::root().join(format!("target/page-{name}.png"));
        std::fs::create_dir_all(png.parent().unwrap()).unwrap();
        // Removed first, so an earlier run's picture does not pass for this one.
        let _ = std::fs::remove_file(&png);
        let shot = headless(&url, &[&format!("--screenshot={}", png.display()), "--window-size=1400,1200"]);
        assert!(shot.status.success() && png.exists(), "no screenshot of {path}");
    }
}
