// The fields a form asked for, as History and rules keep them: keys, titles and the titles of
// choice options, never defaults or values.
import type { AskedField, FieldOptionTitle } from "../shared/history";
import { MAX_FORM_PROPERTIES } from "../shared/limits";
import { fieldsFromSchema } from "./fields";
import { isPlainObject } from "../shared/unknown-value";

function schemaProperties(schema: unknown): Record<string, unknown> {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return {};
  return schema.properties;
}

/** The fields a form asked for: keys and titles, never defaults or values. */
export function fieldsAsked(schema: unknown): AskedField[] {
  const fields: AskedField[] = [];
  const titled = optionTitles(schema);
  for (const [key, property] of Object.entries(schemaProperties(schema))) {
    if (fields.length >= MAX_FORM_PROPERTIES) break;
    const title = isPlainObject(property) && typeof property.title === "string" ? property.title.slice(0, 200) : undefined;
    const options = titled.get(key);
    fields.push({ key: key.slice(0, 200), ...(title ? { title } : {}), ...(options ? { options } : {}) });
  }
  return fields;
}

/** Kept per field, so a record of a long choice list stays small. */
const MAX_TITLED_OPTIONS = 50;

/** The titles of each choice field's options, read the way the form read them (src/forms/fields.ts). */
function optionTitles(schema: unknown): Map<string, FieldOptionTitle[]> {
  const plan = fieldsFromSchema(schema);
  const titled = new Map<string, FieldOptionTitle[]>();
  if (!plan.ok) return titled;
  for (const field of plan.fields) {
    const options = (field.options ?? []).filter((o) => o.label !== o.value).slice(0, MAX_TITLED_OPTIONS);
    if (options.length) titled.set(field.key.slice(0, 200), options.map((o) => ({ value: o.value.slice(0, 200), title: o.label.slice(0, 200) })));
  }
  return titled;
}
