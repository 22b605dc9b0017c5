import Foundation

/// Student's t distribution's upper tail, for the newest-commit test (a baseline of k runs estimates its spread
/// with k − 1 degrees of freedom, and the normal tail would be too thin). Through the regularized incomplete beta
/// function, evaluated by its continued fraction (Numerical Recipes, 3rd ed., §6.4).
public enum StudentT {
  /// P(T > t) for T with `degrees` degrees of freedom.
  public static func upperTail(_ t: Double, degrees: Double) -> Double {
    guard t.isFinite else { return t > 0 ? 0 : 1 }
    let tail = 0.5 * incompleteBeta(degrees / (degrees + t * t), a: degrees / 2, b: 0.5)
    return t >= 0 ? tail : 1 - tail
  }

  /// I_x(a, b).
  static func incompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
    guard x > 0 else { return 0 }
    guard x < 1 else { return 1 }
    let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
    let logPowers: Double = a * log(x) + b * log(1 - x)
    let front = exp(logGammas + logPowers)
    return x < (a + 1) / (a + b + 2)
      ? front * continuedFraction(x, a: a, b: b) / a
      : 1 - front * continuedFraction(1 - x, a: b, b: a) / b
  }

  private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    d = 1 / (abs(d) < tiny ? tiny : d)
    var h = d
    for m in 1...300 {
      let m = Double(m)
      for numerator in [
        m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
        -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
      ] {
        d = 1 + numerator * d
        d = 1 / (abs(d) < tiny ? tiny : d)
        c = 1 + numerator / c
        if abs(c) < tiny { c = tiny }
        h *= d * c
      }
      if abs(d * c - 1) < 1e-14 { break }
    }
    return h
  }
}
