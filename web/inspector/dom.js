// A small element builder. Stored text reaches the page only as text nodes, never as HTML, so a
// memory or a turn cannot inject markup or script.

/**
 * el("li", { class: "x", dataset: { id } , onclick }, "text", child…)
 * Attributes starting with "on" become listeners; `dataset` and `style` take objects.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else if (name === "style") Object.assign(node.style, value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return node;
}

/** Replaces a node's children. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return node;
}

/** A conversation time as "2024-03-02 18:00" (the API gives UTC ISO strings). */
export function when(iso) {
  return iso ? iso.slice(0, 16).replace("T", " ") : "";
}

/** A badge naming a status ("active", "failed"…), coloured by the stylesheet. */
export function badge(text) {
  return el("span", { class: `badge badge-${String(text).toLowerCase()}` }, String(text));
}

/** Collapsed JSON for operation inputs and outputs. */
export function jsonDetails(label, value) {
  if (value === undefined || value === null) return null;
  return el("details", {}, el("summary", {}, label), el("pre", {}, JSON.stringify(value, null, 2)));
}
