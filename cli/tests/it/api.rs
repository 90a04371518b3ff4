//! The HTTP API as a client meets it: the real server on port 0 and a fresh data directory, real
//! requests, every endpoint and every error. A file of `api/` for each part of it, reaching the two
//! helpers below as `super::{problem, server}`.

use crate::common;

use crate::common::{spawn_fresh, Server};
use serde_json::Value;

fn problem(r: &common::Reply, status: u16) -> Value {
    assert_eq!(r.status, status, "{}", r.text);
    assert!(r.content_type.starts_with("application/problem+json"), "{}: {}", r.content_type, r.text);
    let p = r.json();
    assert_eq!(p["status"], status);
    assert!(p["detail"].as_str().is_some_and(|d| !d.is_empty()), "{p}");
    p
}

fn server() -> Server {
    spawn_fresh("api", &[])
}

mod document;
mod games;
mod http;
mod limits;
mod referee;
mod rulesets;
mod sessions;
