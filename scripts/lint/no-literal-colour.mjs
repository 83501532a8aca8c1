// An ESLint rule: no literal colour in the front ends' code (components, remotes, charts). Every
// colour comes from a design token (a CSS custom property of shared/ui/src/styles.css), so a
// brand's theme reaches it. Also checks the stylesheets the same way (checkStylesheet), where only
// the design system's token declarations may name a colour.

/** A hex colour (#rrggbb, #rrggbbaa) or a colour function anywhere in a text. */
export const LITERAL_COLOUR = /(^|[^\w&])#(?:[0-9a-f]{6}|[0-9a-f]{8})\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/i;
/** A short hex colour (#rgb, #rgba) as a whole value: within a sentence "#123" is a number. */
const SHORT_HEX = /^\s*#(?:[0-9a-f]{3,4})\s*$/i;
const isColour = (text) => LITERAL_COLOUR.test(text) || SHORT_HEX.test(text);

function report(context, node, text) {
  if (isColour(text)) {
    context.report({ node, message: 'A literal colour: use a design token (var(--…) from shared/ui/src/styles.css), so every brand\'s theme applies.' });
  }
}

export const noLiteralColour = {
  meta: { type: 'problem', docs: { description: 'colours only from design tokens' }, schema: [] },
  create(context) {
    return {
      Literal(node) {
        if (typeof node.value === 'string') report(context, node, node.value);
      },
      TemplateElement(node) {
        report(context, node, node.value.cooked ?? node.value.raw);
      },
      JSXText(node) {
        // Text shown to a person (a "#1" in a sentence is no colour): not checked.
        void node;
      },
    };
  },
};

/**
 * The literal colours of a stylesheet outside custom-property declarations (`--name: value`), as
 * `line: text`. Only the design system's stylesheet may declare tokens with literal values.
 */
export function stylesheetColours(css, { tokensAllowed }) {
  const problems = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  text.split('\n').forEach((line, i) => {
    for (const decl of line.split(/[;{}]/)) {
      const isToken = /^\s*--[\w-]+\s*:/.test(decl);
      if (isToken && tokensAllowed) continue;
      // In a stylesheet a # followed by three or four hex digits is always a colour.
      if (LITERAL_COLOUR.test(decl) || /(^|[\s:,(])#[0-9a-f]{3,4}\b/i.test(decl)) problems.push(`${i + 1}: ${decl.trim()}`);
    }
  });
  return problems;
}

export default { rules: { 'no-literal-colour': noLiteralColour } };
