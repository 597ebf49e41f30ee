/**
 * Answers left out ("Prefer not to say", issue 31): a sum of trees with some inputs
 * marginalised, exactly as path-dependent TreeSHAP treats an input it does not know.
 *
 * At a split on a left-out input, the tree's output is the cover-weighted average of its two
 * sides (the tree's own estimate of that input's distribution among the rows that reached the
 * split). Such a tree equals a weighted sum of trees in which each of those splits is replaced
 * by one of its sides (weight: that side's share of the cover), with the side's covers rescaled
 * to the split's, so every other split keeps its cover shares. The left-out input appears in
 * none of the resulting trees: its explanation is exactly 0, the other inputs' explanations are
 * the Shapley values of the game without it (it is a null player), the expected value (the
 * explanation's base) is unchanged, and baseValue + effects = the marginalised output exactly
 * (docs/decisions/0027-optional-questions.md).
 */
import type { Ensemble } from "./ensemble.ts";
import type { Tree } from "./gbt.ts";

type Sub =
  | { leaf: true; value: number; cover: number }
  | { leaf: false; feature: number; threshold: number; cover: number; left: Sub; right: Sub };

function scaleCovers(s: Sub, k: number): Sub {
  if (s.leaf) return { ...s, cover: s.cover * k };
  return { ...s, cover: s.cover * k, left: scaleCovers(s.left, k), right: scaleCovers(s.right, k) };
}

/** The weighted trees a tree becomes when the inputs in `out` are marginalised. */
function expand(tree: Tree, node: number, out: ReadonlySet<number>): { sub: Sub; w: number }[] {
  const f = tree.feature[node]!;
  const cover = tree.cover[node]!;
  if (f < 0) return [{ sub: { leaf: true, value: tree.value[node]!, cover }, w: 1 }];
  const l = tree.left[node]!;
  const r = tree.right[node]!;
  if (out.has(f)) {
    const result: { sub: Sub; w: number }[] = [];
    for (const c of [l, r]) {
      const share = tree.cover[c]! / cover;
      for (const e of expand(tree, c, out)) {
        result.push({ sub: scaleCovers(e.sub, cover / tree.cover[c]!), w: e.w * share });
      }
    }
    return result;
  }
  const lefts = expand(tree, l, out);
  const rights = expand(tree, r, out);
  const result: { sub: Sub; w: number }[] = [];
  for (const a of lefts) {
    for (const b of rights) {
      result.push({
        sub: {
          leaf: false,
          feature: f,
          threshold: tree.threshold[node]!,
          cover,
          left: a.sub,
          right: b.sub,
        },
        w: a.w * b.w,
      });
    }
  }
  return result;
}

function flatten(sub: Sub, weight: number): Tree {
  const t: Tree = { feature: [], threshold: [], left: [], right: [], value: [], cover: [] };
  const add = (s: Sub): number => {
    const i = t.feature.length;
    t.feature.push(s.leaf ? -1 : s.feature);
    t.threshold.push(s.leaf ? 0 : s.threshold);
    t.left.push(-1);
    t.right.push(-1);
    t.value.push(s.leaf ? s.value * weight : 0);
    t.cover.push(s.cover);
    if (!s.leaf) {
      t.left[i] = add(s.left);
      t.right[i] = add(s.right);
    }
    return i;
  };
  add(sub);
  return t;
}

function uses(tree: Tree, out: ReadonlySet<number>): boolean {
  return tree.feature.some((f) => out.has(f));
}

/** The ensemble with the inputs (feature indices) in `out` marginalised; unchanged trees shared. */
export function marginalise(e: Ensemble, out: ReadonlySet<number>): Ensemble {
  if (out.size === 0) return e;
  const trees: Tree[] = [];
  for (const tree of e.trees) {
    if (!uses(tree, out)) {
      trees.push(tree);
      continue;
    }
    for (const { sub, w } of expand(tree, 0, out)) {
      if (w > 0) trees.push(flatten(sub, w));
    }
  }
  return { baseScore: e.baseScore, trees };
}
