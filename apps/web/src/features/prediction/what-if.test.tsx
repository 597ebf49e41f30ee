import type { PredictionResult } from "@gradecast/contract/prediction";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { WhatIfOutcome } from "./what-if.tsx";

// The what-if's outcome (issue 28): the difference agrees with the two scores as they are shown,
// and a change that moves nothing says why.
afterEach(cleanup);

const result = (prediction: number, modelSetup: "A" | "B" | "C" = "A") =>
  ({ prediction, modelSetup }) as PredictionResult;

const difference = () => screen.getByTestId("whatif-difference").textContent;

describe("the what-if outcome", () => {
  it("writes the difference from the scores as shown: 11.2 to 11.4 is +0.2, not +0.12", () => {
    // 11.24 shows as 11.2, 11.36 as 11.4; their raw difference is 0.12.
    render(<WhatIfOutcome base={result(11.24)} result={result(11.36)} changed={["studytime"]} />);
    expect(screen.getByTestId("whatif-prediction").textContent).toBe("11.4");
    expect(screen.getByText(/Your prediction: 11\.2\./)).toBeTruthy();
    expect(difference()).toBe("(+0.2 points, higher)");
  });

  it("says one point in the singular and a fall with a true minus sign", () => {
    render(<WhatIfOutcome base={result(12.04)} result={result(11.0)} changed={["absences"]} />);
    expect(difference()).toBe("(−1.0 point, lower)");
  });

  it("says the model finds no effect for students with these grades when nothing moves", () => {
    render(<WhatIfOutcome base={result(11.2)} result={result(11.2)} changed={["studytime"]} />);
    expect(difference()).toBe("(±0.0 points, no change)");
    expect(screen.getByTestId("whatif-no-effect").textContent).toBe(
      "The model finds no effect of weekly study time for students with these grades.",
    );
  });

  it("says almost no effect when the move is too small to show, and of answers without grades", () => {
    render(
      <WhatIfOutcome base={result(9.21, "C")} result={result(9.23, "C")} changed={["goout"]} />,
    );
    expect(difference()).toBe("(±0.0 points, no change)");
    expect(screen.getByTestId("whatif-no-effect").textContent).toBe(
      "The model finds almost no effect of going out with friends for students with answers like yours (under 0.05 points).",
    );
  });
});
