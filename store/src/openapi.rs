//! (feature `openapi`) What the derives of the store's wire types cannot say. The listing's line
//! (`Summary`) and the stored event (`StoredEvent`) derive their schemas beside their serde derives;
//! a derive says `additionalProperties: false` only for a type that denies unknown fields, and these
//! two are read back from the database: a summary or an event stored by another version, with a field
//! this one does not know, must still be read. The store writes no other field, so the document
//! promises none ([`Closed`]).

use utoipa::openapi::schema::{AdditionalProperties, Schema};
use utoipa::openapi::RefOr;
use utoipa::{Modify, ToSchema};

use crate::{StoredEvent, Summary};

/// Closes the store's objects in the document: `additionalProperties: false` on the schemas of
/// `Summary` and `StoredEvent`, under the names they give themselves.
pub struct Closed;

impl Modify for Closed {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else { return };
        for name in [<Summary as ToSchema>::name(), <StoredEvent as ToSchema>::name()] {
            if let Some(RefOr::T(Schema::Object(schema))) = components.schemas.get_mut(name.as_ref()) {
                schema.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
            }
        }
    }
}
