import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { HotWalletRequest } from "../requests";
import { HotWallet, HotWalletList } from "../responses";

registry.registerPath({
  method: "get",
  path: "/v1/hot-wallets",
  operationId: "listHotWallets",
  summary: "List hot wallets",
  description: "The account's hot wallets on every chain: at most the per-chain maximum of registrations (100 unless configured otherwise) on each.",
  security: [{ bearer: [] }],
  responses: { 200: { description: "the hot wallets", ...jsonContent(HotWalletList) }, ...authenticatedResponses },
});

registry.registerPath({
  method: "post",
  path: "/v1/hot-wallets",
  operationId: "registerHotWallet",
  summary: "Register a hot wallet",
  description: "Registers the hot wallet and deploys its delegate; `delegate` is known at once. Registering again returns it; after failed it restarts the deployment.",
  security: [{ bearer: [] }],
  request: { body: { required: true, ...jsonContent(HotWalletRequest) } },
  responses: {
    200: { description: "the hot wallet is already active", ...jsonContent(HotWallet) },
    202: { description: "the delegate is being deployed", ...jsonContent(HotWallet) },
    400: errorResponse("invalid_json"),
    422: errorResponse(
      "unknown_chain (not supported in this environment); invalid_address (address is not a non-zero 0x-address); too_many_hot_wallets (the account has the maximum of hot wallets on this chain, 100 unless configured otherwise; registering one of them again still answers)",
    ),
    ...authenticatedResponses,
  },
});
