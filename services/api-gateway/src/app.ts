import { openApiYaml } from "@sweep/api-contract";
import type { Logger } from "@sweep/common";
import express from "express";
import { errorHandler, notFound } from "./http/errors";
import { jsonBody } from "./http/json-body";

export interface AppDeps {
  logger: Logger;
  publicUrl?: string;
}

/** The partner API as an express app; main.ts gives it its connections. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);

  const openApi = openApiYaml(deps.publicUrl);
  app.get("/healthz", (_req, res) => {
    res.status(204).end();
  });
  app.get("/v1/openapi.yaml", (_req, res) => {
    res.type("application/yaml").send(openApi);
  });

  app.use(jsonBody);
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
