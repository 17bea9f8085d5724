module { tt.func public @broken(%x: i32) { %y = arith.addi %x, %x : i64 tt.return } }
