import express from "express";

/** The spec's request body limit: larger bodies are 400 invalid_json. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Parses JSON bodies of any content type that claims JSON; a body with another content type is
 * left unparsed and then refused by the route's schema as invalid_json.
 */
export const jsonBody = express.json({ limit: MAX_BODY_BYTES, strict: true, type: ["application/json", "application/*+json"] });
