import { withDescribedReferences } from "./described-references";

describe("withDescribedReferences", () => {
  const ref = { $ref: "#/components/schemas/Address" };

  it.each([
    ["a described reference", { allOf: [ref, { description: "deposit address" }] }, { $ref: ref.$ref, description: "deposit address" }],
    ["one inside properties and arrays", { properties: { a: { items: [{ allOf: [ref, { description: "d" }] }] } } }, { properties: { a: { items: [{ $ref: ref.$ref, description: "d" }] } } }],
    ["an allOf that composes two schemas", { allOf: [ref, { type: "object" }] }, { allOf: [ref, { type: "object" }] }],
    ["an allOf of three", { allOf: [ref, { description: "d" }, { description: "e" }] }, { allOf: [ref, { description: "d" }, { description: "e" }] }],
    ["a reference with more than $ref", { allOf: [{ ...ref, nullable: true }, { description: "d" }] }, { allOf: [{ ...ref, nullable: true }, { description: "d" }] }],
    ["a description beside more", { allOf: [ref, { description: "d", example: "0x" }] }, { allOf: [ref, { description: "d", example: "0x" }] }],
  ])("%s", (_case, input, expected) => {
    expect(withDescribedReferences(structuredClone(input))).toEqual(expected);
  });
});
