import { describe, expect, it } from "vitest";
import { whatIfKeys } from "./prediction.ts";
import {
  askedQuestions,
  optionLabel,
  optionText,
  questionByKey,
  questionKeys,
  questionnaireSchema,
  questions,
  sections,
} from "./questionnaire.ts";

// The questionnaire catalogue against the fields it must ask, and its schema.

const valid: Record<string, string> = Object.fromEntries(
  questions.map((q) => [q.key, String(q.options[0]!.value)]),
);

const numbersOf = (key: string) =>
  questionByKey[key as keyof typeof questionByKey].options.map((o) => o.value);

describe("questionnaire catalogue", () => {
  it("asks the 30 fields of the student record and the subject, once each, each in a known section", () => {
    expect(questions.map((q) => q.key).sort()).toEqual([...questionKeys].sort());
    expect(new Set(questions.map((q) => q.key)).size).toBe(31);
    expect(numbersOf("subject")).toEqual(["mat", "por"]);
    // The school is the deployment's, never asked (issue 28): the form asks 30.
    expect(askedQuestions.map((q) => q.key)).not.toContain("school");
    expect(askedQuestions).toHaveLength(30);
    // only the term grades may be "not known yet"
    expect(questions.filter((q) => q.unknownLabel).map((q) => q.key)).toEqual(["G1", "G2"]);
    const known = new Set<string>(sections.map((s) => s.key));
    for (const q of questions) {
      expect(known.has(q.section), q.key).toBe(true);
      expect(q.label.length, q.key).toBeGreaterThan(0);
      expect(q.help.length, q.key).toBeGreaterThan(0);
    }
  });

  it("offers exactly the ranges and option sets of the student record", () => {
    const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
    expect(numbersOf("age")).toEqual(range(10, 25));
    expect(numbersOf("G1")).toEqual(range(0, 20));
    expect(numbersOf("G2")).toEqual(range(0, 20));
    expect(numbersOf("absences")).toEqual(range(0, 100));
    for (const k of ["Medu", "Fedu", "failures"]) expect(numbersOf(k)).toEqual(range(0, 4));
    for (const k of ["traveltime", "studytime"]) expect(numbersOf(k)).toEqual(range(1, 4));
    for (const k of ["famrel", "freetime", "goout", "health"]) {
      expect(numbersOf(k)).toEqual(range(1, 5));
    }
    expect(numbersOf("school").sort()).toEqual(["GP", "MS"]);
    expect(numbersOf("famsize").sort()).toEqual(["GT3", "LE3"]);
    expect(numbersOf("Mjob").sort()).toEqual(["at_home", "health", "other", "services", "teacher"]);
    expect(numbersOf("reason").sort()).toEqual(["course", "home", "other", "reputation"]);
    const yesNo = "schoolsup famsup paid activities nursery higher internet romantic";
    for (const k of yesNo.split(" ")) {
      expect(numbersOf(k).sort()).toEqual(["no", "yes"]);
    }
  });

  it("gives the human labels the issue names", () => {
    expect(optionLabel("Medu", 0)).toBe("none");
    expect(optionLabel("Medu", 4)).toBe("higher education");
    expect(optionLabel("traveltime", "1")).toBe("<15 min");
    expect(optionLabel("traveltime", 4)).toBe(">1 hour");
    expect(optionLabel("famsize", "LE3")).toBe("three or fewer");
  });

  it("lets the what-if panel change only actionable answers", () => {
    for (const k of whatIfKeys) expect(questionByKey[k].actionable, k).toBe(true);
  });
});

describe("questionnaire schema", () => {
  it("accepts strings and numbers and answers numbers for numeric questions", () => {
    const fromStrings = questionnaireSchema.parse({ ...valid, age: "17", G2: " 20 " });
    expect(fromStrings.age).toBe(17);
    expect(fromStrings.G2).toBe(20);
    const fromNumbers = questionnaireSchema.parse({ ...valid, age: 17, G2: 20 });
    expect(fromNumbers).toEqual(fromStrings);
  });

  it.each([
    ["age", "9"],
    ["age", 26],
    ["age", "17.5"],
    ["age", 17.5],
    ["age", "1e1"],
    ["age", "-10"],
    ["absences", 101],
    ["G1", 21],
    ["Medu", 5],
    ["studytime", 0],
    ["school", "gp"],
    ["school", "XX"],
    ["internet", true],
    ["Mjob", 1],
    ["age", undefined],
    ["sex", undefined],
  ])("refuses %s = %j naming only that field", (key, value) => {
    const result = questionnaireSchema.safeParse({ ...valid, [key]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual([key]);
  });
});

describe("the school (issue 28)", () => {
  it("may be left out or null (the server puts the deployment's in), never another code", () => {
    const { school: _left, ...rest } = valid;
    expect(questionnaireSchema.parse(rest).school).toBeNull();
    expect(questionnaireSchema.parse({ ...valid, school: null }).school).toBeNull();
    expect(questionnaireSchema.parse({ ...valid, school: "MS" }).school).toBe("MS");
  });
});

describe("how an answer reads", () => {
  it("shows the label alone, with a capital first letter", () => {
    expect(optionText({ value: "yes", label: "Yes" })).toBe("Yes");
    expect(optionText({ value: "no", label: "No" })).toBe("No");
    expect(optionText({ value: 3, label: "3" })).toBe("3");
    // The label alone, never the data set's code (issue 28).
    expect(optionText({ value: "LE3", label: "three or fewer" })).toBe("Three or fewer");
    expect(optionText({ value: 4, label: "higher education" })).toBe("Higher education");
    expect(optionText({ value: "at_home", label: "At home" })).toBe("At home");
  });
});
