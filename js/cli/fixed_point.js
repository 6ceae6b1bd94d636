// js/cli/fixed_point.js: numbers in fixed-point decimal text, as docs/cli.md's "Number formatting"
// specifies for both tools (tools/cli/fixed_point.h is the other implementation): rounded in integer
// arithmetic, half up, on the exact value of a ratio of integers or of a double.

// scaled / 10^decimals as text: "3.13" for (313n, 2).
function textOf(scaled, decimals) {
  const digits = scaled.toString().padStart(decimals + 1, '0');
  if (decimals === 0) return digits;
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

// numerator / denominator (integers or bigints, denominator > 0), rounded half up to `decimals` digits.
export function fixedRatio(numerator, denominator, decimals) {
  const n = BigInt(numerator) * 10n ** BigInt(decimals);
  const d = BigInt(denominator);
  return textOf((2n * n + d) / (2n * d), decimals);
}

// value (finite, >= 0) rounded half up to `decimals` digits, from its exact binary value.
export function fixedDouble(value, decimals) {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError('fixedDouble needs a finite value >= 0');
  const bits = new DataView(new ArrayBuffer(8));
  bits.setFloat64(0, value);
  const word = bits.getBigUint64(0);
  const biased = Number(word >> 52n);
  const fraction = word & ((1n << 52n) - 1n);
  // value = mantissa * 2^exponent exactly (subnormals have no implicit leading 1).
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = BigInt((biased === 0 ? 1 : biased) - 1075);
  const scaled = mantissa * 10n ** BigInt(decimals);
  if (exponent >= 0n) return textOf(scaled << exponent, decimals);
  return textOf((scaled + (1n << (-exponent - 1n))) >> -exponent, decimals);
}
