import path from "node:path";
import { Router } from "express";
import { pageHeaders } from "../http/page-headers";

/** Where the page and its scripts are served: the gateway's own origin, never a CDN. */
const API_REFERENCE_PATH = "/docs";
const ASSETS = `${API_REFERENCE_PATH}/assets`;

/** The document the reference renders: GET /v1/openapi.yaml, the one the running gateway serves. */
const DOCUMENT_URL = "/v1/openapi.yaml";

/**
 * Swagger UI's prebuilt browser bundle and stylesheet, from the installed swagger-ui-dist (resolved from this
 * file, in the service bundle too). The bundle needs neither eval nor workers, and its stylesheet embeds its
 * icons as data: URIs and names no web font, so the policy below holds it.
 */
const SWAGGER_UI_DIST = path.dirname(require.resolve("swagger-ui-dist/swagger-ui-bundle.js"));
const FILES = ["swagger-ui-bundle.js", "swagger-ui.css"];

/**
 * Only this origin: the scripts and stylesheet above and the document fetched from /v1; beyond it just data:
 * images (the stylesheet's icons, the page's empty favicon). React sets Swagger UI's inline styles through the
 * DOM's style properties, which style-src does not govern, so no 'unsafe-inline' is needed; the browser test
 * checks that the page renders with nothing refused.
 */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/**
 * Starts Swagger UI on the document the page names: a file of its own, as the policy runs no inline script.
 * A reference, not a client: "Try it out" is off (no API key is typed into a page), and so is the online
 * validator's badge (validatorUrl: null), an image Swagger UI would otherwise load from the validator's site.
 */
const STARTER = `"use strict";
const root = document.getElementById("reference");
SwaggerUIBundle({ domNode: root, url: root.dataset.document, deepLinking: true, supportedSubmitMethods: [], validatorUrl: null });
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sweep service API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<main id="reference" data-document="${DOCUMENT_URL}"><noscript>The reference needs JavaScript; the OpenAPI document itself is at <a href="${DOCUMENT_URL}">${DOCUMENT_URL}</a>.</noscript></main>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="${ASSETS}/reference.js"></script>
</body>
</html>
`;

/** The API reference at /docs: the OpenAPI document rendered by Swagger UI, every file served from here. */
export function apiReferenceRoutes(): Router {
  const router = Router();
  router.use(API_REFERENCE_PATH, pageHeaders(API_REFERENCE_CSP));
  router.get(API_REFERENCE_PATH, (_req, res) => {
    res.type("html").send(PAGE);
  });
  router.get(`${ASSETS}/reference.js`, (_req, res) => {
    res.type("text/javascript").send(STARTER);
  });
  for (const name of FILES) {
    router.get(`${ASSETS}/${name}`, (_req, res) => {
      // From the package's folder as root: the store's path (node_modules/.pnpm) is no dotfile of the answer.
      res.sendFile(name, { root: SWAGGER_UI_DIST });
    });
  }
  return router;
}
