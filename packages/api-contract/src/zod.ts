import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

// Once, before any schema is built: gives every zod schema `.openapi(...)`.
extendZodWithOpenApi(z);

export { z };
