"""Hooks for scripts/schemathesis.sh: how to send a body of `application/x-ndjson` (POST /games:import),
a media type schemathesis has no serializer of its own for. The document types the body as text, so a
generated value is sent as it is; a value of another type is written as JSON, one per line."""
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return (json.dumps(value) + "\n").encode("utf-8")
