/// The library's version, one constant for the library and its tools (`pureimage --version`).
/// Semantic versioning: 0.x while the API settles; CHANGELOG.md says what each version changed.
public enum PureImageVersion {
    public static let string = "0.1.0"
}
