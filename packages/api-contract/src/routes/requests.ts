import { authenticatedResponses, errorResponse, jsonContent, registry } from "../registry";
import { RequestId } from "../request-id";
import { REQUEST_LOG_RETENTION_DAYS, RequestLogEntry, RequestLogList, RequestLogListQuery } from "../request-log";
import { z } from "../zod";

registry.registerPath({
  method: "get",
  path: "/v1/requests",
  operationId: "listRequests",
  summary: "List requests",
  description: `The account's requests of the last ${REQUEST_LOG_RETENTION_DAYS} days, newest first; filters combine. A request is listed within about a second of its answer.`,
  security: [{ bearer: [] }],
  request: { query: RequestLogListQuery },
  responses: {
    200: { description: "a page of requests", ...jsonContent(RequestLogList) },
    400: errorResponse("invalid_query; `message` names the parameter"),
    ...authenticatedResponses,
  },
});

registry.registerPath({
  method: "get",
  path: "/v1/requests/{request_id}",
  operationId: "getRequest",
  summary: "Get a request by its X-Request-Id",
  description: `A request of the account's last ${REQUEST_LOG_RETENTION_DAYS} days, by the X-Request-Id its answer carried (the newest, when you sent one id several times). Requests refused 401 belong to no account and are not kept. A request is found within about a second of its answer.`,
  security: [{ bearer: [] }],
  request: { params: z.object({ request_id: RequestId }) },
  responses: {
    200: { description: "the request", ...jsonContent(RequestLogEntry) },
    404: errorResponse("not_found: no such request in the account's last days"),
    ...authenticatedResponses,
  },
});
