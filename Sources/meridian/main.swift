import ArgumentParser
import Hummingbird
import GRDB
print("meridian")
