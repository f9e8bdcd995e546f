import cluster from "node:cluster";
import { runService } from "@sweep/common";
import { loadGatewayConfig } from "./config";
import { startGateway } from "./gateway";
import { superviseWorkers } from "./gateway-workers";

// One process, or with GATEWAY_WORKERS > 1 a primary that runs that many gateways on the same port (both cores of a machine).
void runService("api-gateway", () => loadGatewayConfig(), ({ config, logger }) =>
  config.GATEWAY_WORKERS > 1 && cluster.isPrimary ? superviseWorkers(config, logger) : startGateway(config, logger),
);
