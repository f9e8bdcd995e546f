import { ApiError, type ErrorCode } from "./api-error";
import type { z } from "zod";

/**
 * Turns zod's verdict on a body or a query into the spec's error. Shape problems (an unknown
 * field, a missing one, a wrong JSON type) are the request's fault as a whole: `shapeCode`
 * (invalid_json for bodies, invalid_query for queries). A value of the right type that breaks a
 * rule gets the code the spec names for that field (`valueCodes`, by the longest listed prefix of
 * the field's path without array indexes, else by its first segment), in the order the spec lists
 * those codes.
 */
export interface ValidationCodes {
  shapeCode: "invalid_json" | "invalid_query";
  /** by top-level field or by a nested one ("low_balance.threshold"), in the order their errors are reported; fields not listed get shapeCode */
  valueCodes: Readonly<Record<string, ErrorCode>>;
  /** what an unknown field is called in the message: "field" or "query parameter" */
  noun: string;
}

type Issue = z.core.$ZodIssue;

export function parseRequest<S extends z.ZodType>(schema: S, input: unknown, codes: ValidationCodes): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw requestError(parsed.error.issues, input, codes);
}

export function requestError(issues: readonly Issue[], input: unknown, codes: ValidationCodes): ApiError {
  // A repeated query parameter reaches zod as an array, whatever the parameter's own schema is.
  const repeated = codes.shapeCode === "invalid_query" ? issues.find((issue) => issue.path.length > 0 && Array.isArray(valueAt(input, issue.path))) : undefined;
  if (repeated) return new ApiError("invalid_query", `${pathName(repeated.path)} must be given once`);
  const shape = issues.find((issue) => isShapeIssue(issue, input));
  if (shape) return new ApiError(codes.shapeCode, shapeMessage(shape, input, codes));
  const fields = Object.keys(codes.valueCodes);
  // The longest listed prefix of the path without indexes ("addresses.authorization" for addresses.3.authorization.r), else its first segment.
  const fieldOf = (issue: Issue) => {
    const keys = issue.path.filter((key) => typeof key === "string");
    for (let length = keys.length; length > 0; length--) {
      const field = keys.slice(0, length).join(".");
      if (Object.hasOwn(codes.valueCodes, field)) return field;
    }
    return String(issue.path[0]);
  };
  const rank = (issue: Issue) => {
    const index = fields.indexOf(fieldOf(issue));
    return index === -1 ? fields.length : index;
  };
  const first = [...issues].sort((a, b) => rank(a) - rank(b))[0]!;
  const code = codes.valueCodes[fieldOf(first)] ?? codes.shapeCode;
  return new ApiError(code, `${pathName(first.path)} ${first.message}`);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** zod reports a fractional number for an integer as invalid_type "int": that is a value, not a type. */
function isShapeIssue(issue: Issue, input: unknown): boolean {
  if (issue.code === "unrecognized_keys") return true;
  if (issue.code !== "invalid_type") return false;
  const value = valueAt(input, issue.path);
  return !(issue.expected === "int" && typeof value === "number");
}

const expectedNames: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
};

function shapeMessage(issue: Issue, input: unknown, codes: ValidationCodes): string {
  if (issue.code === "unrecognized_keys") {
    const names = issue.keys.map((key) => pathName([...issue.path, key]));
    return `unknown ${codes.noun}${names.length > 1 ? "s" : ""} ${names.join(", ")}`;
  }
  const value = valueAt(input, issue.path);
  if (issue.path.length === 0) return codes.shapeCode === "invalid_json" ? "request body must be a JSON object" : "query is not valid";
  const name = pathName(issue.path);
  if (value === undefined) return `${name} is required`;
  const expected = issue.code === "invalid_type" ? (expectedNames[issue.expected] ?? issue.expected) : "of another type";
  return `${name} must be ${expected}`;
}

function pathName(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}
