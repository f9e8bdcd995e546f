import { apiListQuery } from "./list-api-query";

describe("a list's filters as the API's query", () => {
  it.each([
    [{}, undefined, { limit: 25, cursor: undefined }],
    [{ chain_id: "97", status: "swept", account: "" }, "c1", { limit: 25, cursor: "c1", chain_id: 97, status: "swept", account: undefined }],
    [{ chain_id: "", kind: "fee" }, undefined, { limit: 25, cursor: undefined, chain_id: undefined, kind: "fee" }],
  ])("%j with cursor %s", (filters, cursor, query) => {
    expect(apiListQuery(filters, cursor)).toEqual(query);
  });
});
