import { Gauge } from "prom-client";
import { registry } from "./registry";

/** 1 while this chain-sender holds the chain's leader lease (it sends and watches there), 0 on standby. */
export const chainSenderLeader = new Gauge({
  name: "sweep_chain_sender_leader",
  help: "1 while this chain-sender process leads the chain (holds its lease), 0 while on standby",
  labelNames: ["chain_id"] as const,
  registers: [registry],
});
