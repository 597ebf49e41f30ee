import type { Locator, Page } from "playwright-core";

/**
 * Presses a button inside the report frame from the keyboard (focus, then Enter), as a keyboard
 * user does. The 1250 by 600 frame is drawn scaled to fit the page, and since the report runs in
 * an opaque origin (no allow-same-origin, issue 18) Playwright measures its controls without that
 * scale: its click lands beside the button. A mouse click at the drawn position works (checked
 * by hand: the frame's box plus the button's own rectangle times the scale).
 */
export async function pressInFrame(control: Locator): Promise<void> {
  await control.focus();
  await control.press("Enter");
}

/**
 * Moves the mouse over a point of a control inside a frame, where the frame draws it: the
 * frame's box on the page plus the control's own rectangle times the frame's scale (see above
 * for why Playwright's hover cannot be used there). `at` is the point as fractions of the control.
 */
export async function hoverInFrame(
  page: Page,
  frameElement: Locator,
  control: Locator,
  at: { x: number; y: number },
): Promise<void> {
  const outer = await frameElement.boundingBox();
  const width = await frameElement.evaluate((el) => (el as HTMLElement).offsetWidth);
  const inner = await control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  if (!outer || width === 0) throw new Error("the frame is not on the screen");
  const k = outer.width / width;
  await page.mouse.move(
    outer.x + (inner.x + inner.width * at.x) * k,
    outer.y + (inner.y + inner.height * at.y) * k,
  );
}
