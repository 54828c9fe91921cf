// placeholder while the package skeleton builds
