//! The OpenAPI schemas of the score's figures (feature `openapi`), which a derive cannot say: a
//! figure is a number, a truth, a text or a list of these.

use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use super::Figure;

/// A value of the score as `Figure` writes it.
impl PartialSchema for Figure {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(ObjectBuilder::new().schema_type(Type::Number))
            .item(ObjectBuilder::new().schema_type(Type::Boolean))
            .item(ObjectBuilder::new().schema_type(Type::String))
            // A list of figures, written out one level deep: generated clients do not follow a union
            // that refers to itself.
            .item(
                ArrayBuilder::new().items(
                    OneOfBuilder::new()
                        .item(ObjectBuilder::new().schema_type(Type::Number))
                        .item(ObjectBuilder::new().schema_type(Type::Boolean))
                        .item(ObjectBuilder::new().schema_type(Type::String))
                        .item(ArrayBuilder::new()),
                ),
            )
            .description(Some("A value of the score: a number, true or false, a text (a player, a card, \"trick 18\"), or a list of these"))
            .into()
    }
}
impl ToSchema for Figure {}

/// A pair `[name, value]` of `Outcome::values`, e.g. `["oudlers", 2]`.
pub struct NamedFigure;

impl PartialSchema for NamedFigure {
    fn schema() -> RefOr<Schema> {
        ArrayBuilder::new()
            .items(Ref::from_schema_name("Figure"))
            .min_items(Some(2))
            .max_items(Some(2))
            .description(Some("A named value of the score, as a pair [name, value]: [\"oudlers\", 2]"))
            .examples([serde_json::json!(["oudlers", 2])])
            .into()
    }
}
impl ToSchema for NamedFigure {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push(("Figure".into(), Figure::schema()));
    }
}
