// Small files named for what they do: no file in src/main over 400 lines, no function over 120
// (measured by the TypeScript parser, so a long arrow or method counts like a function).
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../helpers/imports";
import { functionSizes, lineCount } from "../helpers/sizes";

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 120;
const files = sourceFiles("src/main").filter((file) => file.endsWith(".ts"));

describe("sizes in src/main", () => {
  it(`no file is over ${MAX_FILE_LINES} lines`, () => {
    expect(files.filter((file) => lineCount(file) > MAX_FILE_LINES).map((file) => `${file}: ${lineCount(file)}`)).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap(functionSizes).filter((f) => f.lines > MAX_FUNCTION_LINES);
    expect(long.map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines}`)).toEqual([]);
  });

  it("the measure sees a long function", () => {
    const sizes = functionSizes("test/helpers/imports.ts");
    expect(sizes.find((f) => f.name === "cycles")?.lines).toBeGreaterThan(30);
  });
});
