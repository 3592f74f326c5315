// libFuzzer target: every input is decoded as webp, without sniffing, through FuzzDriver.
import CLibFuzzer
import FuzzDriver
#if canImport(Glibc)
import Glibc
#endif

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    FuzzDriver.run(data, size, format: .webp)
    return 0
})
