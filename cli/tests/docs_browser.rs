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

// The pages for people are tested in `pages_browser.rs`.
